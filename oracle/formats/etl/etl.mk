# The ETW .etl reader: a library of its own so tests/etl/ link it without
# the rest of gcoracle. read_etl.c is the or_reader_ops adapter that goes
# into liboracle.
noinst_LIBRARIES += oracle/libgcetl_r.a
oracle_libgcetl_r_a_CPPFLAGS = $(AM_CPPFLAGS) $(FWNT_CFLAGS)
oracle_libgcetl_r_a_SOURCES = oracle/formats/etl/etl_r.h oracle/formats/etl/etl_read.c

# gcoracle gets the same reader through liboracle (reader_table.c lists it).
oracle_liboracle_a_SOURCES += oracle/formats/etl/etl_adapter.c oracle/formats/etl/etl_read.c
