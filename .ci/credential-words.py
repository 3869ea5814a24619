#!/usr/bin/env python3
"""Writes the guides' tables of credential words from the one judgement that uses them.

Redaction, log masking and the CLI judge a name by its words with the lists in
Sources/Understudy/Redaction/Names/CredentialWords.swift. The guides print those lists; this script
writes them between the markers

    <!-- credential-words:begin (written by .ci/credential-words.py from CredentialWords.swift) -->
    <!-- credential-words:end -->

in every Markdown file of Documentation/ and README.md that has them, so a guide cannot name a
word the code does not use, or miss one it does. It also writes
Tests/UnderstudyTests/Fixtures/credential-lookalike-words.txt, the dictionary words the
dictionary test reads (every word of /usr/share/dict/words, Debian's wamerican, that holds a
credential word, a run-together ending, `key` or `code`), when that dictionary is installed.

    python3 .ci/credential-words.py           # rewrites the tables (and the word list)
    python3 .ci/credential-words.py --check   # exits 1 when a table or the list is stale

Python standard library only.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE = ROOT / "Sources" / "Understudy" / "Redaction" / "Names" / "CredentialWords.swift"
LOOKALIKES = ROOT / "Tests" / "UnderstudyTests" / "Fixtures" / "credential-lookalike-words.txt"
DICTIONARY = pathlib.Path("/usr/share/dict/words")
BEGIN = "<!-- credential-words:begin (written by .ci/credential-words.py from CredentialWords.swift) -->"
END = "<!-- credential-words:end -->"


def word_list(source, name):
    match = re.search(r"static let " + name + r"\b[^=]*=\s*\[(.*?)\]", source, re.S)
    if not match:
        sys.exit(f"credential-words: no list `{name}` in {SOURCE.relative_to(ROOT)}")
    return re.findall(r'"([^"]+)"', match.group(1))


def code(words, sort=True):
    return ", ".join(f"`{word}`" for word in (sorted(words) if sort else words))


def table(source):
    lists = {
        name: word_list(source, name)
        for name in [
            "heads", "runTogetherEndings", "ordinaryWords", "spellingWords", "ordinaryKeys",
            "keyPrefixes", "codeQualifiers", "frameworkNames", "pluralHeads", "countingWords",
        ]
    }
    # `pluralHeads` is a dictionary literal, plural then singular.
    plurals = lists["pluralHeads"][0::2]
    rows = [
        ("The name's last word is one of", code(lists["heads"]),
         "`X-Client-Pwd`, `db_pass`, `password_reset_token`, `connect.sid`, `X-Hub-Signature-256`"),
        ("The last word is `key`, unless the word before it is one of", code(lists["ordinaryKeys"]),
         "`apiKey`, `x-api-key`, `AccountKey`, `secret_key` (not `sort_key`, `Idempotency-Key`)"),
        ("The last word is `code` and the word before it is one of", code(lists["codeQualifiers"]),
         "`auth_code`, `mfaCode`, `device_code` (not `error_code`, `zip_code`)"),
        ("The last words are `session` and `id`", "`session_id`, `sessionId`, `SESSION-ID`",
         "`ASP.NET_SessionId`"),
        ("The last word is a plural, " + code(plurals, sort=False) + ", after another word, "
         "and reads as its singular would; unless the word before it is one of",
         code(lists["countingWords"]),
         "`apiKeys`, `refresh_tokens`, `sessionCookies`, `otp_codes` (not `max_tokens`, a JWKS's "
         "`keys`, `sortKeys`)"),
        ("The name is only `key` or `code`", "as a query or form parameter only",
         "`?key=…`, `?code=…` (not `{\"key\": …}`, not a `Key` header)"),
        ("One word run together ends in", code(lists["runTogetherEndings"], sort=False),
         "`accesstoken`, `csrfmiddlewaretoken`, `PHPSESSID`, `JSESSIONID`, `oauth`; "
         "a form's `pass+word`"),
        ("One word run together is `key` after one of", code(lists["keyPrefixes"], sort=False),
         "`apikey`, `ACCESSKEY`, `secretkey` (not `monkey`, `turkey`)"),
        ("Its words run together are one of (framework names)", code(lists["frameworkNames"]),
         "`secret_key_base`, `SAMLResponse`, `ConnectionString`"),
        ("Words taken off the end before the last word is read", code(lists["spellingWords"]),
         "`password_confirmation`, `tokenHash`, `secret_b64`, `cookieValue`"),
        ("Ordinary words that end like a credential's, never one", code(lists["ordinaryWords"]),
         "`compass`, `obsession` (also never: `keyboard`, `passenger`, `tokenizer`, which "
         "are other words)"),
    ]
    lines = [
        "| A name reads as a credential's when | Words | For example |",
        "| --- | --- | --- |",
    ]
    lines += [f"| {rule} | {words} | {example} |" for rule, words, example in rows]
    return "\n".join(lines)


def lookalikes(source):
    if not DICTIONARY.exists():
        return None
    substrings = set(word_list(source, "heads")) | set(word_list(source, "runTogetherEndings"))
    substrings |= {"key", "code"}
    words = {line.strip().lower() for line in DICTIONARY.read_text(encoding="utf-8").splitlines()}
    selected = sorted(w for w in words if w and "'" not in w and any(s in w for s in substrings))
    return "\n".join(selected) + "\n"


def main():
    check = "--check" in sys.argv[1:]
    source = SOURCE.read_text(encoding="utf-8")
    generated = table(source)
    stale = []
    guides = sorted((ROOT / "Documentation").glob("*.md")) + [ROOT / "README.md"]
    found = 0
    for path in guides:
        text = path.read_text(encoding="utf-8")
        pattern = re.compile(re.escape(BEGIN) + r"\n.*?" + re.escape(END), re.S)
        if not pattern.search(text):
            continue
        found += 1
        updated = pattern.sub(lambda _: BEGIN + "\n" + generated + "\n" + END, text)
        if updated != text:
            stale.append(path.relative_to(ROOT))
            if not check:
                path.write_text(updated, encoding="utf-8")
    if found == 0:
        sys.exit("credential-words: no guide holds the table's markers")
    words = lookalikes(source)
    if words is not None and (not LOOKALIKES.exists() or LOOKALIKES.read_text() != words):
        stale.append(LOOKALIKES.relative_to(ROOT))
        if not check:
            LOOKALIKES.write_text(words, encoding="utf-8")
    if check and stale:
        for path in stale:
            print(f"error: {path} is not what CredentialWords.swift says; run "
                  "python3 .ci/credential-words.py and commit the result", file=sys.stderr)
        sys.exit(1)
    print(f"credential-words: {found} table(s)"
          + (", the dictionary word list" if words is not None else "")
          + (" checked" if check else ": " + (", ".join(map(str, stale)) + " rewritten" if stale else "up to date")))


if __name__ == "__main__":
    main()
