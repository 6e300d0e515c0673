"""`make bench`: the project's performance table, measured, never asserted."""
