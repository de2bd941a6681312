"""The campaign side of the site: pages, the GM's actions, campaign battles, read-only JSON."""
