# The ETW .etl reader: oracle/read_etl*.c, listed in reader_table.c.
