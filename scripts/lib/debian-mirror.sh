# Sourced by the image builds: find_mirror SUITE prints the first Debian mirror URI this machine's
# apt sources use for SUITE (/etc/apt/sources.list(.d), one-line or deb822), never a hard-coded
# host, so the builds work wherever apt works (an air-gapped server's own mirror included).
find_mirror() {
  local suite=$1 f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk -v s="$suite" '$1=="deb" { i=2; if ($2 ~ /^\[/) { while ($i !~ /\]$/) i++; i++ } if ($(i+1)==s) { print $i; exit } }' "$f"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk -v s="$suite" '
      /^[[:space:]]*$/ { if (ok && uri) { print uri; exit } ok=0; uri=""; next }
      /^URIs:/ { uri=$2 }
      /^Suites:/ { for (i=2;i<=NF;i++) if ($i==s) ok=1 }
      END { if (ok && uri) print uri }' "$f"
  done | head -1
}
