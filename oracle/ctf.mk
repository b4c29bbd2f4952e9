# The CTF (LTTng) reader: oracle/read_ctf*.c, listed in reader_table.c.
# A library of its own so tests/ctf/ link it without the rest of gcoracle;
# read_ctf.c is the or_reader_ops adapter that goes into liboracle.
CTF_R_SOURCES = \
	oracle/ctf_r.h oracle/ctf_read_i.h oracle/ctf_read.c \
	oracle/ctf_meta.h oracle/ctf_lex.h oracle/ctf_lex.c oracle/ctf_tsdl.c \
	oracle/ctf_compile.c oracle/ctf_decode.c oracle/ctf_class.c \
	oracle/ctf_payload.c
noinst_LIBRARIES += oracle/libgcctf_r.a
oracle_libgcctf_r_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/oracle
oracle_libgcctf_r_a_SOURCES = $(CTF_R_SOURCES)

# gcoracle gets the same reader through liboracle (reader_table.c lists it).
oracle_liboracle_a_SOURCES += oracle/read_ctf.c $(CTF_R_SOURCES)
