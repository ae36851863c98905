"""Data: table databases and SQL databases the teams keep structured records in."""
