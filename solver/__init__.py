"""Capsa Susun solver and sibling game engines."""
