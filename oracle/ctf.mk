# The CTF (LTTng) reader: oracle/read_ctf*.c, listed in reader_table.c.
