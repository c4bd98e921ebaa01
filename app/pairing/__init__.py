"""Quick pairing (issue 34): "Find a game" puts a player in a queue that lives in the
database; people waiting for the same player count and pace are seated together in a
new room, by rating where ratings exist, and free seats may go to bots after a time
each player chooses.  ``matching`` decides who plays whom (pure); ``queue`` runs it
over a store and the rooms."""
