"""What every package shares and none owns: the domain events a room's commit
produces and the registry of who listens to them (``outbox``).  Imports nothing of
``app``: the rooms, the features and storage all stand on it."""
