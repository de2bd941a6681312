"""The forms of the table's pages: characters, Orders and the clock, engagements, checks.

As in `campaign.forms`, forms only parse what was typed; the services decide what is allowed.
A unit field offers only the units that may do what it asks (an `Offer`, which asks the rule
where one decides it), so a page never offers a unit that cannot act.
"""
