"""Checks of an import's people: its members by username, and the invitations waiting with what
accepting each hands over.
"""

from __future__ import annotations

from typing import Any

from campaign.models import Invitation, Membership
from campaign.rules.values import (
    MAX_MEMBERS_PER_CAMPAIGN,
    MAX_PENDING_INVITATIONS,
    NAME_LENGTH,
    value_shown,
)
from campaign.selectors.access import invitee_key
from campaign.transfer.bounds import past_most
from campaign.transfer.checker import Checker, check_text
from campaign.transfer.format import INVITATION_KEYS
from units.words import given, possessive

USERNAME_LONGEST = 150
"""The longest username an account has (Django's)."""


def check_members(
    c: Checker, path: str, members: Any, gm_name: str, *, look_up: bool = True
) -> dict[str, Any]:
    """Members by username, each with its role and its user on this site (``look_up`` False:
    None, and no one is looked up, so the check tells nothing of which accounts exist)."""
    if not isinstance(members, list):
        c.error(path, "must be a list")
        return {}
    if past_most(c, path, members, "members", "a campaign", MAX_MEMBERS_PER_CAMPAIGN):
        return {}
    found: dict[str, Any] = {}
    for index, member in enumerate(members):
        at = f"{path}[{index}]"
        if not c.mapping(at, member, ("user", "role")):
            continue
        if not isinstance(member["user"], str):
            c.error(f"{at}.user", f"must be a username, got {type(member['user']).__name__}")
            continue
        if member["role"] not in Membership.Role.values:
            c.error(f"{at}.role", f"must be one of {', '.join(Membership.Role.values)}")
        name = member["user"]
        if not name.strip() or len(name) > USERNAME_LONGEST:
            c.error(f"{at}.user", f"must be a username of 1..{USERNAME_LONGEST} characters")
            continue
        if name == gm_name:
            c.error(f"{at}.user", "the GM is not also a member")
        elif name in found:
            c.error(f"{at}.user", "listed twice")
        user = c.user(f"{at}.user", name) if look_up else None
        if user is not None or not look_up:
            found[name] = (user, member["role"])
    return found


INVITEE_LONGEST = Invitation._meta.get_field("invitee").max_length


def _held(
    c: Checker, path: str, listed: Any, what: str, waiting: dict[str, str], taken: set[str]
) -> None:
    """The names of the forces or characters (``what``) an invitation holds, each one of the
    export's that may wait for an invitee (``waiting``: by name, "" or why it may not) and held
    for no other (``taken``, the names held so far)."""
    if not isinstance(listed, list):
        c.error(path, f"must be a list of {what} names")
        return
    for number, name in enumerate(listed):
        at = f"{path}[{number}]"
        if not check_text(c, at, name, NAME_LENGTH, empty=False):
            continue
        if name not in waiting:
            c.error(at, f"no {what} {given(name)} in the export")
        elif waiting[name]:
            c.error(at, f"{given(name)} {waiting[name]}")
        elif name in taken:
            c.error(at, f"{given(name)} is listed twice: a {what} waits for one invitee")
        taken.add(name)


def check_invitations(
    c: Checker,
    path: str,
    data: Any,
    *,
    gm_name: str,
    named: set[str],
    forces: list[dict[str, Any]],
    characters: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """The invitations waiting in the export, as the site keeps them: each to someone the file
    does not name already (``named``: its GM and members) and invited once, in a role, holding
    forces the file's GM (``gm_name``) holds and characters nobody plays, each for one of them.
    No more wait than a campaign keeps (`MAX_PENDING_INVITATIONS`)."""
    if isinstance(data, list) and len(data) > MAX_PENDING_INVITATIONS:
        c.error(path, f"holds {len(data):,} invitations; at most {MAX_PENDING_INVITATIONS} wait "
                "at once")  # fmt: skip
        return []
    gm_forces = {
        force["name"]: ""
        if force["owner"] == gm_name
        else f"is {possessive(str(force['owner']))} force: only a force the GM holds waits for an "
        "invitee"
        for force in forces
    }
    unplayed = {
        character["name"]: ""
        if character["player"] is None
        else f"is played by {character['player']}: only a character nobody plays waits for an "
        "invitee"
        for character in characters
    }
    invitees: set[str] = set()
    taken: dict[str, set[str]] = {"force": set(), "character": set()}

    def one(at: str, invitation: dict[str, Any]) -> None:
        invitee = invitation["invitee"]
        if check_text(c, f"{at}.invitee", invitee, INVITEE_LONGEST, empty=False):
            key = invitee_key(invitee)
            if key in named:
                c.error(f"{at}.invitee", f"{given(invitee)} is the campaign's GM or a member "
                        "in the file already: only someone not in it is invited")  # fmt: skip
            elif key in invitees:
                c.error(f"{at}.invitee", f"{given(invitee)} is invited twice")
            invitees.add(key)
        if invitation["role"] not in Membership.Role.values:
            c.error(f"{at}.role", f"must be one of {', '.join(Membership.Role.values)}, got "
                    f"{value_shown(invitation['role'])}")  # fmt: skip
        _held(c, f"{at}.forces", invitation["forces"], "force", gm_forces, taken["force"])
        _held(c, f"{at}.characters", invitation["characters"], "character", unplayed,
              taken["character"])  # fmt: skip

    return c.records(path, data, INVITATION_KEYS, one)
