# The nettrace reader (streaming, V4/V5/V6): a library of its own so
# tests/nettrace/ link it without the rest of gcoracle. read_nettrace.c is the
# or_reader_ops adapter that goes into liboracle.
noinst_LIBRARIES += oracle/libgcnettrace_r.a
oracle_libgcnettrace_r_a_CPPFLAGS = $(AM_CPPFLAGS)
oracle_libgcnettrace_r_a_SOURCES = \
	oracle/formats/nettrace/nettrace_r.h oracle/formats/nettrace/nettrace_read.c \
	oracle/formats/nettrace/nettrace_rmeta.h oracle/formats/nettrace/nettrace_rmeta.c oracle/formats/block.h oracle/formats/block.c


# gcoracle gets the same reader through liboracle (reader_table.c lists it).
oracle_liboracle_a_SOURCES += \
	oracle/formats/nettrace/nettrace_adapter.c oracle/formats/nettrace/nettrace_read.c oracle/formats/nettrace/nettrace_rmeta.c
