# Turns the reference sections at the end of the root command's DESCRIPTION (the part of
# `anywall --help` headed "EXIT STATUS:", "FILES:" and "ENVIRONMENT:", written by
# ReferenceSections.swift) into the man page's own sections, in mdoc's order, replacing the
# generic EXIT STATUS that generate-manual adds. Run by scripts/install on the generated page.
#   awk -f scripts/man-sections.awk anywall.1 > anywall.1.new

function flush_item() {
    if (key != "") { items[current] = items[current] ".It " key "\n" meaning "\n" }
    key = ""; meaning = ""
}

/^\.Sh DESCRIPTION/ { in_description = 1; print; next }
in_description && /^(EXIT STATUS|FILES|ENVIRONMENT):$/ {
    flush_item(); current = substr($0, 1, length($0) - 1); order[++count] = current; next
}
in_description && current != "" && /^\./ { flush_item(); in_description = 0; current = "" }
in_description && current != "" {
    if ($0 ~ /^  [^ ]/) {
        flush_item()
        line = substr($0, 3); split_at = index(line, "  ")
        key = substr(line, 1, split_at - 1); meaning = substr(line, split_at + 2)
    } else if ($0 != "") {
        meaning = meaning " " $0
    }
    next
}
/^\.Sh "EXIT STATUS"$/ { skip_generic = 1; next }
skip_generic && /^\.Ex/ { skip_generic = 0; next }
{ print }
END {
    flush_item()
    names[1] = "ENVIRONMENT"; names[2] = "FILES"; names[3] = "EXIT STATUS"
    for (i = 1; i <= 3; i++) {
        if (!(names[i] in items)) continue
        print ".Sh \"" names[i] "\""
        print ".Bl -tag -width Ds"
        printf "%s", items[names[i]]
        print ".El"
    }
}
