# function_lengths.awk — prints "LINES FILE:LINE NAME" for each top-level C
# function definition of the files it reads.  A definition starts at a
# column-0 line that names a function (an identifier and "(", not a
# declaration ending in ";" or a one-line body ending in "}") and ends at
# the first "}" in column 0; LINES counts both ends.  The house style
# (every brace of a top-level body at column 0) is what makes this enough.
/^[A-Za-z_][^;=]*\(/ && !/[;}][ ]*$/ && !/^#/ { if (!start) { start = FNR; name = $0 } next }
/^}/ {
  if (start) {
    n = FNR - start + 1
    sub(/\(.*/, "", name)
    k = split(name, a, /[ *]+/)
    print n, FILENAME ":" start, a[k]
  }
  start = 0
  next
}
/^[A-Za-z_].*;[ ]*$/ { start = 0 }
