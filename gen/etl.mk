# The ETW .etl writer: gen/write_etl*.c, listed in writer_table.c.
