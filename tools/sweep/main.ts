/**
 * `npm run sweep -- <corpus dirs or files> --warnAt 5,7,9 --cap 9,12,16 --sequence off,4x3x5 … [--svg file] [--json]`
 *
 * Replays a corpus under every combination of the given settings and prints one
 * row per setting: sessions warned, sessions gated, advisory messages
 * delivered, calls blocked and, with a `labels.json` ({"<session>": "good" |
 * "stuck"}), known-good sessions touched (any advisory or gate) and stuck
 * sessions caught (the gate engaged: a call asked about or denied). Writes an
 * SVG chart of messages delivered against stuck sessions caught.
 *
 * Exit status: 0 on success, 1 when no log could be read, 2 for a usage error.
 */
import { standardIo } from '../lib/cli.js';
import { sweepCli } from './cli.js';

process.exitCode = await sweepCli(process.argv.slice(2), standardIo);
