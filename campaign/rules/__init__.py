"""The campaign's rules as plain Python: BUCS state, the bridge to and from Team Bravo, recovery,
experience, Orders, characters, checks and engagements. Nothing here imports Django; the
services in `campaign.services` read and write the database around these."""
