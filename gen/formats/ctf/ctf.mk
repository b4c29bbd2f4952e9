# The CTF (LTTng) writer and its container-fault mutator, listed in
# gen/formats/writer_table.c: a library of their own, compiled once, that
# gcgen and the tests link (GEN_LIBS).
noinst_LIBRARIES += gen/formats/ctf/libgcctf_w.a
gen_formats_ctf_libgcctf_w_a_SOURCES = \
	gen/formats/ctf/ctf_w.h gen/formats/ctf/write_ctf.c gen/formats/ctf/ctf_wlayout.c gen/formats/ctf/ctf_wmeta.c \
	gen/formats/ctf/mutate_ctf.h gen/formats/ctf/mutate_ctf.c gen/formats/ctf/mutate_ctf_table.c \
	gen/formats/ctf/dirimage.h gen/formats/ctf/dirimage.c gen/formats/ctf/outdir.h gen/formats/ctf/outdir.c
GEN_WRITER_LIBS += gen/formats/ctf/libgcctf_w.a
