# The CTF (LTTng) writer: gen/write_ctf*.c, listed in writer_table.c.
# A library of its own so tests/ctf/ can link the writer without the rest of
# gcgen; gcgen gets the same modules through libgcgen.
CTF_W_SOURCES = \
	gen/formats/ctf/ctf_w.h gen/formats/ctf/write_ctf.c gen/formats/ctf/ctf_wlayout.c gen/formats/ctf/ctf_wmeta.c \
	gen/formats/ctf/mutate_ctf.h gen/formats/ctf/mutate_ctf.c gen/formats/ctf/mutate_ctf_table.c \
	gen/formats/ctf/dirimage.h gen/formats/ctf/dirimage.c gen/formats/ctf/outdir.h gen/formats/ctf/outdir.c
noinst_LIBRARIES += gen/libgcctf_w.a
gen_libgcctf_w_a_SOURCES = $(CTF_W_SOURCES)
gen_libgcgen_a_SOURCES += $(CTF_W_SOURCES)
