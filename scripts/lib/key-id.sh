# Sourced by backup.sh / restore.sh: key_id BASE64_KEY prints the key id that packages/crypto's
# keyIdOf gives (first 4 bytes of SHA-256("secondshift-key-id\0" || key), hex), so the scripts
# can name the key a dump needs without printing the key.
key_id() {
  { printf 'secondshift-key-id\0'; printf '%s' "$1" | base64 -d; } | sha256sum | cut -c1-8
}
