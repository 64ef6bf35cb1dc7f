"""The cudajudge command-line program: `cli` (the `cudajudge` command) and `remote` (its client of a
cudajudge server, for `cudajudge judge --server`). It sits above the judge library (`judge`), the
sandbox and the server (`server`), and imports them; none of them imports it."""
