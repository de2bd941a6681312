"""Reads shaped for the campaign pages and JSON, one module for each thing a page shows."""
