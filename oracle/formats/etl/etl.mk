# The ETW .etl reader: a library of its own, compiled once, that gcoracle
# (through etl_adapter.c, the or_reader_ops adapter in liboracle, listed in
# reader_table.c) and tests/etl/ link.
noinst_LIBRARIES += oracle/formats/etl/libgcetl_r.a
oracle_formats_etl_libgcetl_r_a_CPPFLAGS = $(AM_CPPFLAGS) $(FWNT_CFLAGS)
oracle_formats_etl_libgcetl_r_a_SOURCES = oracle/formats/etl/etl_r.h oracle/formats/etl/etl_read.c \
	oracle/formats/etl/etl_inflate.h oracle/formats/etl/etl_inflate.c
ORACLE_READER_LIBS += oracle/formats/etl/libgcetl_r.a
oracle_liboracle_a_SOURCES += oracle/formats/etl/etl_adapter.c
