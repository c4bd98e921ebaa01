"""Operating a public instance: purging finished rooms (by command and by the
server's retention task), closing rooms, the admin token, and bot load."""
