# The nettrace reader (streaming, V4/V5/V6): a library of its own, compiled
# once, that gcoracle (through nettrace_adapter.c, the or_reader_ops adapter
# in liboracle, listed in reader_table.c) and tests/nettrace/ link; it
# stands on oracle/formats/libgcblock.a.
noinst_LIBRARIES += oracle/formats/nettrace/libgcnettrace_r.a
oracle_formats_nettrace_libgcnettrace_r_a_SOURCES = \
	oracle/formats/nettrace/nettrace_r.h oracle/formats/nettrace/nettrace_read.c \
	oracle/formats/nettrace/nettrace_rmeta.h oracle/formats/nettrace/nettrace_rmeta.c
ORACLE_READER_LIBS += oracle/formats/nettrace/libgcnettrace_r.a
oracle_liboracle_a_SOURCES += oracle/formats/nettrace/nettrace_adapter.c
