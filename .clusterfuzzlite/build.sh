#!/bin/bash -eu
# build.sh - ClusterFuzzLite / OSS-Fuzz build of malform's fuzz targets.
#
# The same sources as the CMake `fuzz` preset (harness/fuzz/fuzz_<target>.c
# over core/, mutators/, oracles/ and harness/lib/), compiled with the
# builder's $CC $CFLAGS and linked with $LIB_FUZZING_ENGINE, so libFuzzer,
# AFL++ and honggfuzz builds and every sanitizer the project.yaml lists come
# from one script. libyaml is built from source with the same flags (the
# Debian package is not instrumented); jansson and PCRE2 are linked
# statically from the distribution. Next to each fuzzer: .options, .dict and
# <fuzzer>_seed_corpus.zip (structured: corpus/cases and the payloads of
# corpus/regression/*.case; raw: every clean artifact, case artifact and
# field failure as a raw input naming its profile: "@<profile>\n" + text,
# harness/lib/raw_input.h).

# libyaml 0.2.5 from source, static, instrumented.
cd "$SRC/libyaml"
./bootstrap
./configure --disable-shared --enable-static --prefix="$WORK/deps" CC="$CC" CFLAGS="$CFLAGS"
make -j"$(nproc)"
make install

cd "$SRC/malform"
cmake -DOUT="$WORK/profiles_embedded.c" -DDIR="$SRC/malform/core/profiles" -P cmake/embed_profiles.cmake

INC="-Icore/include -Icore/src -Imutators/include -Imutators/src -Ioracles/include -Iharness/lib
     -I$WORK/deps/include $(pkg-config --cflags jansson libpcre2-8)"
DEFS="-std=c11 -D_POSIX_C_SOURCE=200809L -DMF_LIBFUZZER"
mkdir -p "$WORK/obj"
for f in core/src/*.c mutators/src/*.c oracles/src/*.c harness/lib/*.c "$WORK/profiles_embedded.c"; do
  $CC $CFLAGS $DEFS $INC -c "$f" -o "$WORK/obj/$(echo "$f" | tr '/' '_').o"
done
LIBDIR=$(pkg-config --variable=libdir jansson)
LIBS="$WORK/deps/lib/libyaml.a $LIBDIR/libjansson.a $(pkg-config --variable=libdir libpcre2-8)/libpcre2-8.a -lm"

TARGETS="structured raw yaml_rules"
for t in $TARGETS; do
  $CC $CFLAGS $DEFS $INC -c "harness/fuzz/fuzz_$t.c" -o "$WORK/fuzz_$t.o"
  # libFuzzer is C++: link with the C++ driver, as OSS-Fuzz does.
  $CXX $CXXFLAGS "$WORK/fuzz_$t.o" "$WORK"/obj/*.o $LIB_FUZZING_ENGINE $LIBS -o "$OUT/fuzz_$t"
  [ -f "harness/fuzz/fuzz_$t.options" ] && cp "harness/fuzz/fuzz_$t.options" "$OUT/"
  [ -f "harness/fuzz/fuzz_$t.dict" ] && cp "harness/fuzz/fuzz_$t.dict" "$OUT/"
done

# Seed corpora.
python3 - "$WORK/seeds" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
profiles = {os.path.basename(p)[:-5] for p in glob.glob("core/profiles/*.yaml")}
def raw(prof, text):  # the raw input format of harness/lib/raw_input.h
    return b"@" + prof.encode() + b"\n" + text
def write(target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)
def split(text):
    head, sep, body = text.partition(b"\n---\n")
    return head, body if sep else b""
for p in sorted(glob.glob("corpus/cases/*.case")):
    data = open(p, "rb").read()
    write("structured", os.path.basename(p), data)
    head, art = split(data)
    for line in head.split(b"\n"):
        if line.startswith(b"profile: ") and line[9:].decode() in profiles:
            write("raw", "case-" + os.path.basename(p), raw(line[9:].decode(), art))
for p in sorted(glob.glob("corpus/regression/*.case")):
    write("structured", "regression-" + os.path.basename(p), split(open(p, "rb").read())[1])
for p in sorted(glob.glob("corpus/seeds/*/*")):
    prof = os.path.basename(os.path.dirname(p))
    if prof in profiles and os.path.isfile(p):
        write("raw", "seed-%s-%s" % (prof, os.path.basename(p)), raw(prof, open(p, "rb").read()))
for p in sorted(glob.glob("corpus/field/*.raw")):
    try:
        prof = json.load(open(p[:-4] + ".json"))["profile"]
    except (OSError, ValueError, KeyError):
        continue
    if prof in profiles:
        write("raw", "field-" + os.path.basename(p), raw(prof, open(p, "rb").read()))
PY
for t in $TARGETS; do
  if [ -d "$WORK/seeds/$t" ]; then
    (cd "$WORK/seeds/$t" && zip -q -r "$OUT/fuzz_${t}_seed_corpus.zip" .)
  fi
done
