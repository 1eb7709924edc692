"""Playing bots against each other: single tournaments, matches, series, the league, transcripts and PHH."""
