# The CTF (LTTng) writer: gen/write_ctf*.c, listed in writer_table.c.
