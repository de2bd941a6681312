"""Celery tasks for campaigns. Thin: each takes ids and calls one service."""

from __future__ import annotations

from celery import shared_task

from campaign.services import accounts, battles, housekeeping, invitation_mail, notices


@shared_task(acks_late=True)
def campaign_battle_finished(battle_id: int) -> None:
    """A campaign's battle is done (or failed): settle it, applying it in auto mode."""
    battles.campaign_battle_settle(battle_id=battle_id)


@shared_task
def settle_campaign_battles() -> list[int]:
    """Settle any finished battle whose notice was missed (run periodically by Celery beat)."""
    return battles.campaign_battles_settle_all()


@shared_task(acks_late=True)
def campaign_notices_send(campaign_id: int) -> int:
    """Mail the campaign's opted-in members what befell their units (campaign.services.notices)."""
    return notices.campaign_notices_send(campaign_id=campaign_id)


@shared_task(acks_late=True)
def email_confirm_send(change_id: int, site: str) -> bool:
    """Mail the link that confirms an address asked for (campaign.services.accounts)."""
    return accounts.email_confirm_mail(change_id=change_id, site=site)


@shared_task(acks_late=True)
def invitation_mail_send(mail_id: int, site: str) -> bool:
    """Mail an invitation's link to the address it names (campaign.services.invitation_mail)."""
    return invitation_mail.invitation_mail_send(mail_id=mail_id, site=site)


@shared_task
def delete_stale_records() -> dict[str, int]:
    """Delete the records no page needs any more (run hourly by Celery beat)."""
    return housekeeping.stale_records_delete()
