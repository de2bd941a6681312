"""The campaign side of the site: pages, the GM's actions, campaign battles, read-only JSON.

Each action guards in the same order: login (302), the campaign and object lookups (404 for
outsiders), the right to act (403), then the form (``form_action``): a service's
``ValidationError`` lands next to the field it names; a success goes back to the page with a
message.
"""
