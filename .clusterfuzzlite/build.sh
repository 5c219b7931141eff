#!/bin/bash -eu
# build.sh - ClusterFuzzLite / OSS-Fuzz build of malform's fuzz targets.
#
# The same sources as the CMake `fuzz` preset (harness/fuzz/fuzz_<target>.c
# over core/, mutators/, oracles/ and harness/lib/), compiled with the
# builder's $CC $CFLAGS and linked with $LIB_FUZZING_ENGINE, so libFuzzer,
# AFL++ and honggfuzz builds and every sanitizer the project.yaml lists come
# from one script. libyaml 0.2.5 and jansson 2.14 are built from source with
# the same flags (distribution packages are not instrumented, and the base
# image's jansson is 2.12, older than the json_object_getn the code calls);
# PCRE2 is linked statically from the distribution. Next to each fuzzer:
# .options, .dict and <fuzzer>_seed_corpus.zip (structured: corpus/cases and
# the payloads of the *fixed* regression entries; raw: every clean artifact,
# case artifact, fixed raw regression entry and field failure as a raw input
# naming its profile: "@<profile>\n" + text, harness/lib/raw_input.h). Open
# regression entries stay out: each still fails, so as a seed it would abort
# every run on a known bug.
# Run locally (no Docker) with the variables ClusterFuzzLite sets:
#   SRC=/path/with/libyaml+jansson+malform WORK=... OUT=... CC=clang CXX=clang++
#   CFLAGS="-fsanitize=address,fuzzer-no-link" CXXFLAGS="$CFLAGS"
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer bash .clusterfuzzlite/build.sh

# libyaml 0.2.5 from source, static, instrumented.
cd "$SRC/libyaml"
[ -x configure ] || ./bootstrap
./configure --disable-shared --enable-static --prefix="$WORK/deps" CC="$CC" CFLAGS="$CFLAGS"
make -j"$(nproc)"
make install

# jansson 2.14 from source, static, instrumented.
cmake -S "$SRC/jansson" -B "$WORK/jansson-build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_INSTALL_PREFIX="$WORK/deps" \
  -DCMAKE_INSTALL_LIBDIR=lib -DJANSSON_BUILD_SHARED_LIBS=OFF -DJANSSON_BUILD_DOCS=OFF \
  -DJANSSON_EXAMPLES=OFF -DJANSSON_WITHOUT_TESTS=ON
cmake --build "$WORK/jansson-build" -j"$(nproc)"
cmake --install "$WORK/jansson-build"

cd "$SRC/malform"
cmake -DOUT="$WORK/profiles_embedded.c" -DDIR="$SRC/malform/core/profiles" -P cmake/embed_profiles.cmake

INC="-Icore/include -Icore/src -Imutators/include -Imutators/src -Ioracles/include -Iharness/lib
     -I$WORK/deps/include $(pkg-config --cflags libpcre2-8)"
DEFS="-std=c11 -D_POSIX_C_SOURCE=200809L -DMF_LIBFUZZER"
mkdir -p "$WORK/obj"
for f in core/src/*.c mutators/src/*.c oracles/src/*.c harness/lib/*.c "$WORK/profiles_embedded.c"; do
  $CC $CFLAGS $DEFS $INC -c "$f" -o "$WORK/obj/$(echo "$f" | tr '/' '_').o"
done
LIBS="$WORK/deps/lib/libyaml.a $WORK/deps/lib/libjansson.a $(pkg-config --variable=libdir libpcre2-8)/libpcre2-8.a -lm"

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
def header(head, key):
    for line in head.split(b"\n"):
        if line.startswith(key.encode() + b": "):
            return line[len(key) + 2:].decode("utf-8", "replace").strip()
    return None
for p in sorted(glob.glob("corpus/cases/*.case")):
    data = open(p, "rb").read()
    write("structured", os.path.basename(p), data)
    head, art = split(data)
    for line in head.split(b"\n"):
        if line.startswith(b"profile: ") and line[9:].decode() in profiles:
            write("raw", "case-" + os.path.basename(p), raw(line[9:].decode(), art))
# Only fixed regression entries: an open one still fails and would abort the target.
for p in sorted(glob.glob("corpus/regression/**/*.case", recursive=True) +
                glob.glob("corpus/regression/**/*.raw", recursive=True)):
    head, body = split(open(p, "rb").read())
    if header(head, "status") != "fixed" or header(head, "pipeline") not in (None, "core"):
        continue
    if p.endswith(".case"):
        write("structured", "regression-" + os.path.basename(p), body)
    else:  # a raw entry's payload already names its profile on its first line
        write("raw", "regression-" + os.path.basename(p), body)
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
