# CTF tests: round trips, faults, babeltrace2 as the peer.
