--TEST--
Yioop's slices, gallops and pre-2019 postings: on a shard written by Yioop's own IndexShard, every list read whole equals Yioop's unpackPosting (offsets, docs, positions), WordIterator's 200-word slices and a slice from inside a posting equal Yioop's getPostingsSlice (docs, positions, next offset) except where Yioop's combined form named a doc without a record, gallops equal nextPostingOffsetDocOffset step for step, seeks by unpackPosting's docs equal a linear scan; batches equal single calls; blobs of a 2014 Yioop equal its unpackPosting; gpupost's lossless postings ('combined' => false) read back exactly by Yioop's own unpackPosting, every first gap 1..1023 for docs 0..2^27-2; random lists against the reference decoder; bad offsets and damaged postings
--EXTENSIONS--
gpupost
zlib
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
[$want, $file, $post] = yioop_shard_data();
$records = $want['lengths'];   /* doc index => tokens: where Yioop's doc records start */
$bad = $lists = $postings = $slices = $defect_docs = $gallops = $seeks = 0;
$requests = $singles = [];
foreach ($want['terms'] as $i => $t) {
    if ($t['info'] === false) continue;
    [$first, $last] = $t['info'];
    $lists++;
    /* the whole list, one posting at a time, as unpackPosting reads it */
    $all = gpu_postings_slice($post, $first, $last, PHP_INT_MAX, GPUPOST_POSTINGS, ['count' => 'postings']);
    $got = array_map(null, $all['offsets'], $all['docs'], $all['positions']);
    $yioop = array_map(fn($u) => [$u[0], $u[1], $u[2]], $t['unpacked']);
    if ($got !== $yioop || $all['next'] !== $last + 4) { $bad++; echo "{$t['word']}: the whole list differs from unpackPosting\n"; }
    $postings += count($yioop);
    $docs = gpu_postings_slice($post, $first, $last, PHP_INT_MAX, GPUPOST_DOCS, ['count' => 'postings']);
    if ($docs !== ['docs' => $all['docs'], 'offsets' => $all['offsets'], 'next' => $all['next']]) { $bad++; echo "{$t['word']}: DOCS mode differs\n"; }
    /* WordIterator's slices: 200 words from each slice's next offset */
    foreach (array_merge($t['slices'], [$t['mid_slice'] + ['limit' => 7]]) as $s) {
        $g = gpu_postings_slice($post, $s['from'], $last, $s['limit'] ?? 200);
        $keyed = [];   /* Yioop keys a slice's items by doc: a later equal doc replaces */
        foreach ($g['docs'] as $k => $d) $keyed[$d] = $g['positions'][$k];
        $ydocs = $s['postings']['docs'];
        $ok = $g['next'] === $s['next'] && count($keyed) === count($ydocs)
            && md5(json_encode(array_values($keyed))) === $s['postings']['positions_md5'];
        foreach (array_keys($keyed) as $k => $d) {
            if ($ydocs[$k] === $d) continue;
            /* Yioop's item read the record at a doc that has none (its key unknown: -1): the
             * combined form's loss, doc + 1, in the combined form's range */
            if ($ydocs[$k] === -1 && !isset($records[$d]) && isset($records[$d - 1]) && $d > 32768) { $defect_docs++; continue; }
            $ok = false;
        }
        if (!$ok) { $bad++; echo "{$t['word']}: slice from {$s['from']} differs from getPostingsSlice\n"; }
        $slices++;
        if (!isset($s['limit'])) { $requests["$i/{$s['from']}"] = [$s['from'], $last, 200]; $singles["$i/{$s['from']}"] = $g; }
    }
    /* gallops, step for step as nextPostingOffsetDocOffset (docIndexModified9's docs) */
    foreach ($t['gallops'] as [$from, $d, $r]) {
        $g = gpu_postings_seek($post, $from, $last, $d, ['gallop' => true]);
        if (($g === false ? false : [$g['offset'], $g['doc']]) !== $r) { $bad++; echo "{$t['word']}: gallop from $from to $d differs: ", json_encode($g), " against ", json_encode($r), "\n"; }
        $gallops++;
        /* the default seek: the first posting (from the one holding $from) whose unpackPosting
         * doc is >= $d, by a linear scan */
        $lin = false;
        foreach ($yioop as $k => [$o, $doc]) {
            $end = $yioop[$k + 1][0] ?? $last + 4;
            if ($end <= $from) continue;
            if ($doc >= $d) { $lin = ['offset' => $o, 'doc' => $doc]; break; }
        }
        $s = gpu_postings_seek($post, $from, $last, $d);
        if ($s !== $lin) { $bad++; echo "{$t['word']}: seek from $from to $d: ", json_encode($s), " against ", json_encode($lin), "\n"; }
        $seeks++;
        $requests["$i/seek/$from/$d"] = [$from, $last, 50, $d];
        $singles["$i/seek/$from/$d"] = $lin === false ? ['docs' => [], 'positions' => [], 'offsets' => [], 'next' => $last + 4]
            : gpu_postings_slice($post, $lin['offset'], $last, 50);
    }
}
echo "lists $lists, postings $postings, slices $slices (Yioop's doc without a record: $defect_docs), gallops $gallops, seeks $seeks\n";
echo "batch equals single calls: ", var_export(gpu_postings_slice_batch($post, $requests) === $singles, true), "\n";
echo "batch in DOCS mode: ", var_export(array_map(fn($s) => array_keys($s), gpu_postings_slice_batch($post, array_slice($requests, 0, 3), GPUPOST_DOCS)) === array_fill_keys(array_keys(array_slice($requests, 0, 3)), ['docs', 'offsets', 'next']), true), "\n";

/* a 2014 Yioop's blobs: its packPosting wrote the first gap plus one */
$legacy = json_decode(gzdecode(file_get_contents(__DIR__ . '/data/yioop/legacy-2014.json.gz')), true);
$same = $lost = 0;
foreach ($legacy['postings'] as $p) {
    $b = hex2bin($p['blob']);
    $g = gpu_postings_slice($b, 0, strlen($b) - 4, 1, GPUPOST_POSTINGS, ['legacy' => true]);
    $same += [$g['docs'][0], $g['positions'][0]] === [$p['yioop_doc'], $p['yioop_positions']];
    $lost += [$p['yioop_doc'], $p['yioop_positions']] !== [$p['doc'], $p['positions']];
}
$l = hex2bin($legacy['list']);
$g = gpu_postings_slice($l, 0, strlen($l) - 4, PHP_INT_MAX, GPUPOST_POSTINGS, ['legacy' => true, 'count' => 'postings']);
printf("2014 blobs: %d of %d as that Yioop read them (it lost %d itself); a list of %d: %s; read as today's form: %s\n",
    $same, count($legacy['postings']), $lost, count($legacy['list_yioop']),
    var_export(array_map(null, $g['docs'], $g['positions']) === $legacy['list_yioop'], true),
    var_export(gpu_postings_slice($l, 0, strlen($l) - 4, PHP_INT_MAX)['positions'] === array_column($legacy['list_yioop'], 1), true));

/* random lists (the encoder's, Yioop's combined form included) against the reference decoder:
 * whole, and as slices that follow each other */
mt_srand(85);
$rand_bad = 0;
for ($r = 0; $r < 60; $r++) {
    $in = rand_mod9_postings(mt_rand(1, 120));
    $blob = gpu_encode_postings($in, GPUPOST_MOD9, GPUPOST_POSTINGS);
    $pad = str_repeat(gpu_encode_postings([5 => [1]], GPUPOST_MOD9, GPUPOST_POSTINGS), mt_rand(0, 3));
    $sec = $pad . $blob . $pad;   /* a list among others, as in a shard */
    $first = strlen($pad);
    $last = $first + strlen($blob) - 4;
    $ref = ref_mod9_postings($blob);
    $whole = gpu_postings_slice($sec, $first, $last, PHP_INT_MAX, GPUPOST_POSTINGS, ['count' => 'postings']);
    if (array_map(null, $whole['docs'], $whole['positions']) !== $ref) $rand_bad++;
    $by = mt_rand(0, 1) ? 'words' : 'postings';
    $limit = mt_rand(1, 9);
    $at = $first;
    $seen = [];
    while ($at <= $last) {
        $s = gpu_postings_slice($sec, $at, $last, $limit, GPUPOST_POSTINGS, ['count' => $by]);
        $n = count($s['docs']);
        $words = $n ? ($s['next'] - $s['offsets'][0]) / 4 : 0;
        /* stops once the limit is reached, never before (unless the list ends) */
        $counted = $by === 'words' ? $words : $n;
        if ($n === 0 || ($s['next'] <= $last && $counted < $limit) || ($counted - ($by === 'words' ? ($s['next'] - end($s['offsets'])) / 4 : 1)) >= $limit) $rand_bad++;
        array_push($seen, ...array_map(null, $s['docs'], $s['positions']));
        $at = $s['next'];
    }
    if ($seen !== $ref) $rand_bad++;
    /* a seek to each doc and to one past it */
    foreach (array_slice($ref, 0, 20) as $k => [$doc]) {
        $next = $ref[$k + 1] ?? null;
        $s1 = gpu_postings_seek($sec, $first, $last, $doc);
        $s2 = gpu_postings_seek($sec, $first, $last, $doc + 1);
        if ($s1['doc'] !== $doc || $s1['offset'] !== $whole['offsets'][$k]) $rand_bad++;
        if ($next === null ? $s2 !== false : ($s2['doc'] !== $next[0] || $s2['offset'] !== $whole['offsets'][$k + 1])) $rand_bad++;
    }
}
echo "random lists: mismatches $rand_bad\n";

/* gpupost's lossless form ('combined' => false, tests/075): Yioop's own unpackPosting read these very bytes (tests/data/yioop, scripts/yioop-testdata.php):
 * the blobs made now are the ones it read, and it read every posting back exactly */
$yioop = json_decode(gzdecode(file_get_contents(__DIR__ . '/data/yioop/lossless-read-by-yioop.json.gz')), true);
$same_bytes = $exact = 0;
foreach ($yioop['docs'] as $i => $doc) {
    $all = '';
    for ($gap = 1; $gap <= 1023; $gap++) $all .= gpu_encode_postings([$doc => [$gap, $gap + 3]], GPUPOST_MOD9, GPUPOST_POSTINGS, ['combined' => false]);
    $same_bytes += md5($all) === $yioop['blobs_md5'][$i];
    foreach ($yioop['read'][$i] as $k => $r) $exact += $r === [$doc, $k + 1, $k + 4];
}
printf("Yioop's unpackPosting on the long form: %d of %d docs' blobs as it read them, %d of %d postings exact (docs %d..%d)\n",
    $same_bytes, count($yioop['docs']), $exact, 1023 * count($yioop['docs']), min($yioop['docs']), max($yioop['docs']));

/* arguments and damaged postings */
[$first, $last] = $want['terms'][0]['info'];
$one = gpu_encode_postings([3 => range(1, 30)], GPUPOST_MOD9, GPUPOST_POSTINGS);   /* several words */
foreach ([
    fn() => gpu_postings_slice($post, $first + 2, $last),
    fn() => gpu_postings_slice($post, $first, strlen($post)),
    fn() => gpu_postings_slice($post, -4, $last),
    fn() => gpu_postings_slice($post . 'x', 0, 0),
    fn() => gpu_postings_slice($post, $first, $last, 0),
    fn() => gpu_postings_slice($post, $first, $last, 10, GPUPOST_VALUES),
    fn() => gpu_postings_slice($post, $first, $last, 10, GPUPOST_POSTINGS, ['count' => 'docs']),
    fn() => gpu_postings_slice($post, $first, $last, 10, GPUPOST_POSTINGS, ['gallop' => true]),
    fn() => gpu_postings_seek($post, $first, $last, 5, ['gallop' => true, 'legacy' => true]),
    fn() => gpu_postings_seek($post, $first, $last, 5, ['legacy' => 1]),
    fn() => gpu_postings_slice_batch($post, [[0, 4]]),
    fn() => gpu_postings_slice_batch($post, ['a' => [0, 4, 1, 2, 3]]),
    fn() => gpu_postings_slice(substr($one, 0, -4), 0, strlen($one) - 8),
    fn() => gpu_postings_slice(substr($one, 4), 0, 0),
    fn() => gpu_postings_slice("\x00\x00\x00\x00", 0, 0),
    fn() => gpu_postings_seek(substr($one, 4), 0, 0, 1),
    fn() => gpu_postings_slice_batch(substr($one, 4), ['k' => [0, 0, 5]]),
] as $f) echo gp_error_of($f), "\n";
echo "a slice past the list: ", json_encode(gpu_postings_slice($one, 0, 0, 5, GPUPOST_DOCS)), "\n";
echo "bad: $bad\n";
?>
--EXPECTF--
lists %d, postings %d, slices %d (Yioop's doc without a record: %d), gallops %d, seeks %d
batch equals single calls: true
batch in DOCS mode: true
2014 blobs: 306 of 306 as that Yioop read them (it lost %d itself); a list of 300: true; read as today's form: false
random lists: mismatches 0
Yioop's unpackPosting on the long form: 15 of 15 docs' blobs as it read them, 15345 of 15345 postings exact (docs 0..134217726)
ValueError: gpu_postings_slice(): Argument #2 ($offset) must be a multiple of 4 within the postings (0 to %d)
ValueError: gpu_postings_slice(): Argument #3 ($last_offset) must be a multiple of 4 within the postings (0 to %d)
ValueError: gpu_postings_slice(): Argument #2 ($offset) must be a multiple of 4 within the postings (0 to %d)
ValueError: gpu_postings_slice(): Argument #1 ($postings) must be whole 4-byte words (%d bytes given)
ValueError: gpu_postings_slice(): Argument #4 ($limit) must be at least 1
ValueError: gpu_postings_slice(): Argument #5 ($mode) must be GPUPOST_DOCS or GPUPOST_POSTINGS
ValueError: gpu_postings_slice(): Argument #6 ($options) option 'count' must be 'words' or 'postings'
ValueError: gpu_postings_slice(): Argument #6 ($options) has an unknown option gallop
ValueError: gpu_postings_seek(): Argument #5 ($options) options 'gallop' and 'legacy' do not go together (docIndexModified9 reads today's form)
TypeError: gpu_postings_seek(): Argument #5 ($options) option 'legacy' must be of type bool, int given
ValueError: gpu_postings_slice_batch(): Argument #2 ($requests) must hold requests [offset, last_offset, limit] or [offset, last_offset, limit, doc] of ints
ValueError: gpu_postings_slice_batch(): Argument #2 ($requests) must hold requests [offset, last_offset, limit] or [offset, last_offset, limit, doc] of ints
GpuPost\Exception: MOD9: byte 0: posting runs past the end of the postings
GpuPost\Exception: MOD9: byte 0: no posting's first word before this word
GpuPost\Exception: MOD9: byte 0: posting's first value is 0 (no doc can be read from it)
GpuPost\Exception: MOD9: byte 0: no posting's first word before this word
GpuPost\Exception: MOD9: byte 0: no posting's first word before this word
a slice past the list: {"docs":[3],"offsets":[0],"next":%d}
bad: 0
