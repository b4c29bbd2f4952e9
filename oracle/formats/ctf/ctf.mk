# The CTF (LTTng) reader: oracle/read_ctf*.c, listed in reader_table.c.
# A library of its own so tests/ctf/ link it without the rest of gcoracle;
# read_ctf.c is the or_reader_ops adapter that goes into liboracle.
CTF_R_SOURCES = \
	oracle/formats/ctf/ctf_r.h oracle/formats/ctf/ctf_read_i.h oracle/formats/ctf/ctf_read.c \
	oracle/formats/ctf/ctf_meta.h oracle/formats/ctf/ctf_lex.h oracle/formats/ctf/ctf_lex.c oracle/formats/ctf/ctf_tsdl.c \
	oracle/formats/ctf/ctf_compile.c oracle/formats/ctf/ctf_decode.c oracle/formats/ctf/ctf_class.c \
	oracle/formats/ctf/ctf_payload.c oracle/formats/ctf/ctf_report.h oracle/formats/ctf/ctf_report.c
noinst_LIBRARIES += oracle/libgcctf_r.a
oracle_libgcctf_r_a_CPPFLAGS = $(AM_CPPFLAGS)
oracle_libgcctf_r_a_SOURCES = $(CTF_R_SOURCES)

# gcoracle gets the same reader through liboracle (reader_table.c lists it).
oracle_liboracle_a_SOURCES += oracle/formats/ctf/ctf_adapter.c $(CTF_R_SOURCES)
