"""Export a force or a whole campaign as JSON, and check such JSON before an import.

The format (docs/campaign.md, "Export and import") names users by username and unit types by
their library name, so it travels between sites; a unit carries its history, and an import
checks that the history explains the unit. `check_*` collect every error, each named by its
path ("forces[0].units[2].quality"); the writes are `campaign.services.campaign_import` and
`force_import`.
"""
