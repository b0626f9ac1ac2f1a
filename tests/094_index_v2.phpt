--TEST--
GpuPost\Index files, version 2 (docs/FORMATS.md): save() writes them; open() maps them and walks their lists in place; answers equal to the index saved, host and device, every operator and limit; the layout read back in PHP; every flipped byte and every truncation of a small file refused (at open(), or at a damaged list's first use) or harmless, never a wrong answer; lists broken under valid checksums refused naming term and byte; 'verify'
--EXTENSIONS--
gpupost
--INI--
memory_limit=1G
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(94);
$dir = sys_get_temp_dir() . '/gpupost-094-' . getmypid();
@mkdir($dir);

/* lists of every format, a few long enough for several blocks (128 postings a block) and
 * far docs; MOD9 postings with and without positions */
function lists_of(int $format, int $nt, bool $ranked_lists = false): array {
    global $all_docs;
    $all_docs = [];
    $l = [];
    for ($t = 0; $t < $nt; $t++) {
        $n = [0, 1, 5, 127, 128, 129, 300, 1000][mt_rand(0, 7)];
        $docs = [];
        $span = mt_rand(0, 1) ? 3000 : 200000;
        while (count($docs) < $n) $docs[mt_rand(0, $span)] = true;
        if ($format !== GPUPOST_S9 && mt_rand(0, 3) === 0) $docs[$format === GPUPOST_QS ? 0xFFFFFFFE : (1 << 27) - 2] = true;
        if ($ranked_lists) $docs = array_filter($docs, fn($d) => $d < 300000, ARRAY_FILTER_USE_KEY);
        ksort($docs);
        $all_docs += $docs;
        if ($format === GPUPOST_MOD9) {
            $p = [];
            foreach ($docs as $d => $_) {
                $pos = [];
                for ($j = mt_rand(0, 5), $x = 0; $j > 0; $j--) $pos[] = $x += mt_rand(1, mt_rand(0, 1) ? 4 : 3000);
                $p[$d] = $pos;
            }
            $l["t$t"] = gpu_encode_postings($p, GPUPOST_MOD9, GPUPOST_POSTINGS, ['combined' => false]);
        } else {
            $l["t$t"] = gpu_encode_postings(array_keys($docs), $format, GPUPOST_VALUES, $format === GPUPOST_S9 ? ['delta' => 1] : []);
        }
    }
    return $l;
}

/* CRC-32C, what version 2 checks its parts (lists, groups of terms, chunks of doc lengths) by */
function crc32c(string $s): int {
    return hexdec(hash('crc32c', $s));
}

/* the section table: id => [crc, offset, length, entry's offset] */
function sections(string $f): array {
    $s = [];
    for ($i = 0, $n = unpack('V', $f, 44)[1]; $i < $n; $i++) {
        $e = unpack('Vid/Vcrc/Poff/Plen', $f, 64 + 24 * $i);
        $s[$e['id']] = [$e['crc'], $e['off'], $e['len'], 64 + 24 * $i];
    }
    return $s;
}
/* every checksum made right again: each list's in the term table, section 8's, the sections', the table's, the header's */
function fix_v2(string $f): string {
    $s = sections($f);
    [, $to, $tl] = $s[6];
    [, $lo, $ll] = $s[7];
    $n = intdiv($tl, 40);
    for ($t = 0; $t < $n; $t++) {
        $off = unpack('P', $f, $to + 40 * $t)[1];
        $end = $t + 1 < $n ? unpack('P', $f, $to + 40 * ($t + 1))[1] : $ll;
        $f = substr_replace($f, pack('V', crc32c(substr($f, $lo + $off, $end - $off))), $to + 40 * $t + 28, 4);
    }
    /* section 8: a checksum a group of terms (offsets and bytes through the next group's first
     * term, table entries), the lengths' head, a checksum a chunk of doc lengths */
    [, $ko] = $s[8];
    [, $ao] = $s[1];
    [, $bo] = $s[2];
    [$g, $c] = array_values(unpack('V2', $f, $ko));
    $groups = intdiv($n + $g - 1, $g);
    for ($i = 0; $i < $groups; $i++) {
        $first = $i * $g;
        $end = min($first + $g, $n);
        $cover = $end < $n ? $end + 1 : $end;
        $o0 = unpack('P', $f, $ao + 8 * $first)[1];
        $o1 = unpack('P', $f, $ao + 8 * $cover)[1];
        $bytes = substr($f, $ao + 8 * $first, 8 * ($cover - $first + 1)) . substr($f, $bo + $o0, $o1 - $o0) . substr($f, $to + 40 * $first, 40 * ($end - $first));
        $f = substr_replace($f, pack('V', crc32c($bytes)), $ko + 32 + 4 * $i, 4);
    }
    if (isset($s[5])) {
        [, $do] = $s[5];
        $f = substr_replace($f, pack('V', crc32c(substr($f, $do, 24))), $ko + 24, 4);
        $docs = unpack('V', $f, $do + 16)[1];
        for ($i = 0; $i * $c < $docs; $i++) {
            $f = substr_replace($f, pack('V', crc32c(substr($f, $do + 24 + 4 * $i * $c, 4 * min($c, $docs - $i * $c)))), $ko + 32 + 4 * ($groups + $i), 4);
        }
    }
    foreach ($s as $id => [, $o, $l, $e]) {
        if ($id !== 7) $f = substr_replace($f, pack('V', crc32(substr($f, $o, $l))), $e + 4, 4);
    }
    $f = substr_replace($f, pack('V', crc32(substr($f, 64, 24 * count($s)))), 48, 4);
    return substr_replace($f, pack('V', crc32(substr($f, 0, 60))), 60, 4);
}

$layouts = ['host' => ['device' => 'host']];
if (gp_device_available()) $layouts['device'] = ['device' => 'cpu'];
$bad = 0;
foreach ([GPUPOST_MOD9, GPUPOST_S9, GPUPOST_QS] as $format) {
    foreach ([true, false] as $ranked) {
        $lists = lists_of($format, 14, $ranked);
        $opts = [];
        if ($ranked) {
            $len = [];
            foreach ($all_docs as $d => $_) $len[$d] = mt_rand(1, 90);
            $opts = ['doc_lengths' => $len, 'k1' => 1.2 + mt_rand(0, 10) / 10, 'b' => mt_rand(0, 10) / 10];
        }
        $built = new GpuPost\Index($lists, $format, ['device' => 'host'] + $opts);
        $path = "$dir/f$format-" . (int)$ranked . ".gpix";
        $built->save($path);
        $built->save("$path.v1", ['version' => 1]);
        $f = file_get_contents($path);
        /* the layout */
        $h = unpack('Z8magic/Vversion/Vformat/Vflags/Vterms/Pdocs/Vpostings/Vpositions/Vmaxdoc/Vsections', $f);
        $s = sections($f);
        $ok = $h['version'] === 2 && $h['terms'] === 14 && isset($s[1], $s[2], $s[6], $s[7], $s[8]) && isset($s[5]) === $ranked && $s[7][0] === 0;
        foreach ([1, 2, 5, 6, 8] as $id) if (isset($s[$id])) $ok = $ok && $s[$id][0] === crc32(substr($f, $s[$id][1], $s[$id][2])) && $s[$id][1] % 8 === 0;
        $ok = $ok && fix_v2($f) === $f;   /* every list's checksum as documented */
        $terms = [];
        for ($t = 0; $t < 14; $t++) {
            $a = unpack('P', $f, $s[1][1] + 8 * $t)[1];
            $terms[] = substr($f, $s[2][1] + $a, unpack('P', $f, $s[1][1] + 8 * $t + 8)[1] - $a);
        }
        $sorted = $terms;
        sort($sorted, SORT_STRING);
        $ok = $ok && $terms === $sorted;
        if (!$ok) { echo "format $format: layout not as documented\n"; $bad++; }
        if ($format === GPUPOST_MOD9 && filesize($path) >= filesize("$path.v1")) { echo "MOD9: version 2 not smaller\n"; $bad++; }

        $ops = $format === GPUPOST_MOD9 ? [GPUPOST_AND, GPUPOST_OR, GPUPOST_PHRASE] : [GPUPOST_AND, GPUPOST_OR];
        $queries = [];
        for ($q = 0; $q < 60; $q++) {
            $ts = [];
            for ($i = mt_rand(1, 4); $i > 0; $i--) $ts[] = 't' . mt_rand(0, 14);
            $queries[] = $ts;
        }
        foreach ($layouts as $name => $layout) {
            foreach ([GpuPost\Index::open($path, $layout), GpuPost\Index::open($path, $layout + ['verify' => true]), GpuPost\Index::open("$path.v1", $layout)] as $k => $m) {
                foreach ($ops as $op) {
                    foreach ($ranked && $op !== GPUPOST_PHRASE ? [0, 1, 7] : [0] as $limit) {
                        $o = ['op' => $op, 'limit' => $limit];
                        $want = $built->searchBatch($queries, $o);
                        $got = $m->searchBatch($queries, $o);
                        $same = $limit ? array_map('array_keys', $got) === array_map('array_keys', $want) : $got === $want;
                        foreach ($limit ? $want : [] as $i => $w) $same = $same && close_to($got[$i], $w);
                        if (!$same) { echo "format $format, ranked $ranked, $name, file $k, op $op, limit $limit: answers differ\n"; $bad++; }
                    }
                    if ($m->count($queries[0], ['op' => $op]) !== $built->count($queries[0], ['op' => $op])) { echo "count differs\n"; $bad++; }
                }
                $a = $built->info(); $b = $m->info();
                foreach (['terms', 'docs', 'postings', 'positions', 'format', 'positional'] as $key) if ($a[$key] !== $b[$key]) { echo "info $key differs\n"; $bad++; }
            }
        }
        $m = GpuPost\Index::open($path);
        $m->save("$path.again");
        if (file_get_contents("$path.again") !== $f) { echo "saved again: other bytes\n"; $bad++; }
    }
}
echo "version 2 as documented, answering as the index saved: ", $bad ? "NO ($bad)" : 'yes', "\n";
echo "version 1 of an index opened from version 2: ", str_replace($dir, 'DIR', gp_error_of(fn() => GpuPost\Index::open("$dir/f1-1.gpix")->save("$dir/x", ['version' => 1]))), "\n";
echo "a version of none: ", gp_error_of(fn() => $built->save("$dir/x", ['version' => 3])), "\n";
echo "device lists asked compressed: ", GpuPost\Index::open("$dir/f1-1.gpix", ['device_lists' => 'compressed'])->info()['device_lists'], "\n";

/* every flipped byte and every truncation of a small ranked MOD9 file: refused at open() or at
 * a query, or the same answers; never another answer */
mt_srand(7);
$lists = [];
for ($t = 0; $t < 4; $t++) {
    $p = [];
    for ($d = mt_rand(0, 3); $d < 400; $d += mt_rand(1, 4 + 20 * $t)) $p[$d] = $t === 3 && $d % 2 ? [] : [mt_rand(1, 3), mt_rand(4, 9)];
    $lists["t$t"] = gpu_encode_postings($p, GPUPOST_MOD9, GPUPOST_POSTINGS);
}
$len = [];
for ($d = 0; $d < 400; $d++) $len[$d] = mt_rand(1, 30);
$small = new GpuPost\Index($lists, GPUPOST_MOD9, ['device' => 'host', 'doc_lengths' => $len]);
$small->save("$dir/small.gpix");
$good = file_get_contents("$dir/small.gpix");
$qs = [[['t0', 't1', 't2', 't3'], ['op' => GPUPOST_OR]], [['t0', 't1'], ['op' => GPUPOST_OR, 'limit' => 3]],
       [['t0', 't0'], ['op' => GPUPOST_PHRASE]], [['t0', 't3'], ['op' => GPUPOST_AND, 'limit' => 2]], [['t2'], []]];
$answers = function (string $bytes) use ($dir, $qs) {
    file_put_contents("$dir/m.gpix", $bytes);
    try {
        $ix = GpuPost\Index::open("$dir/m.gpix", ['device' => 'host']);
    } catch (GpuPost\Exception $e) {
        return 'refused at open';
    }
    $r = [];
    foreach ($qs as [$terms, $o]) {
        try { $r[] = $ix->search($terms, $o); } catch (GpuPost\Exception $e) { $r[] = 'refused'; }
    }
    return $r;
};
$want = $answers($good);
$wrong = $refused = 0;
for ($i = 0; $i < strlen($good); $i++) {
    foreach ([0x01, 0x80] as $x) {
        $f = $good;
        $f[$i] = chr(ord($f[$i]) ^ $x);
        $got = $answers($f);
        if ($got === 'refused at open') { $refused++; continue; }
        foreach ($got as $k => $g) {
            if ($g === 'refused') { $refused++; continue; }
            if ($g != $want[$k]) $wrong++;
        }
    }
}
echo "flipped bytes: $wrong wrong answers, ", $refused > strlen($good) ? "most refused" : "few refused ($refused)", "\n";
$wrong = 0;
for ($n = 0; $n < strlen($good); $n += 3) {
    $got = $answers(substr($good, 0, $n));
    if ($got !== 'refused at open') foreach ($got as $k => $g) if ($g !== 'refused' && $g != $want[$k]) $wrong++;
}
echo "truncations: $wrong wrong answers\n";

/* lists broken under valid checksums: refused at first use, naming term and byte */
$s = sections($good);
$to = $s[6][1];
$lo = $s[7][1];
$broken = [
    'a block\'s last doc moved' => fn($f) => substr_replace($f, pack('V', unpack('V', $f, $lo)[1] + 1), $lo, 4),
    'a score bound lowered' => fn($f) => substr_replace($f, pack('e', 0.001), $to + 16, 8),
    'a block\'s score bound lowered' => fn($f) => substr_replace($f, pack('g', 0.0001), $lo + 8, 4),
    'a position count moved between lists' => fn($f) => substr_replace(substr_replace($f, pack('P', unpack('P', $f, $to + 8)[1] + 1), $to + 8, 8), pack('P', unpack('P', $f, $to + 48)[1] - 1), $to + 48, 8),
    'k1 past its range' => fn($f) => substr_replace($f, pack('e', 1e308), $s[5][1], 8),
    'the lengths of docs removed' => fn($f) => substr_replace($f, str_repeat("\xff", 16), $s[5][1] + 24, 16),
];
foreach ($broken as $what => $fn) {
    file_put_contents("$dir/b.gpix", fix_v2($fn($good)));
    $e = gp_error_of(fn() => GpuPost\Index::open("$dir/b.gpix", ['device' => 'host'])->search(['t0', 't1'], ['op' => GPUPOST_OR, 'limit' => 5]));
    echo "$what: ", preg_replace(['/byte \d+/', '~/\S*gpupost-094-\d+~'], ['byte N', 'DIR'], $e), "\n";
}
/* the doc lengths are read (and checked) by ranked queries only: an unranked one answers */
file_put_contents("$dir/b.gpix", fix_v2($broken['the lengths of docs removed']($good)));
$ix = GpuPost\Index::open("$dir/b.gpix", ['device' => 'host']);
echo "lengths removed, unranked: ", $ix->search(['t0', 't1'], ['op' => GPUPOST_OR]) === $small->search(['t0', 't1'], ['op' => GPUPOST_OR]) ? 'answers' : 'differs', "; ranked: ",
    preg_replace(['/byte \d+/', '~/\S*gpupost-094-\d+~'], ['byte N', 'DIR'], gp_error_of(fn() => $ix->search(['t0', 't1'], ['op' => GPUPOST_OR, 'limit' => 5]))), "\n";
$swap = $good;   /* the first two terms' bytes swapped: out of order */
$swap[$s[2][1] + 1] = $good[$s[2][1] + 3];
$swap[$s[2][1] + 3] = $good[$s[2][1] + 1];
file_put_contents("$dir/b.gpix", fix_v2($swap));
echo "terms out of order: ", str_replace($dir, 'DIR', gp_error_of(fn() => GpuPost\Index::open("$dir/b.gpix")->search(['t3']))), "\n";

/* the dictionary checked by groups of 64 terms at their first use: a damaged group is refused
 * by the lookups that read it, the others answer; 'verify' reads them all at open */
$many = [];
for ($t = 0; $t < 300; $t++) $many[sprintf('w%03d', $t)] = gpu_encode_postings([$t => [1], 300 + $t => [2]], GPUPOST_MOD9, GPUPOST_POSTINGS);
(new GpuPost\Index($many, GPUPOST_MOD9, ['device' => 'host']))->save("$dir/many.gpix");
$f = file_get_contents("$dir/many.gpix");
$s = sections($f);
$at = $s[2][1] + unpack('P', $f, $s[1][1] + 8 * 290)[1];
$f[$at + 1] = 'x';   /* term 290 ('w290') in group 4, its checksum now wrong */
file_put_contents("$dir/b.gpix", $f);
$ix = GpuPost\Index::open("$dir/b.gpix", ['device' => 'host']);
echo "a damaged group, another's term: ", json_encode($ix->search(['w010'])), "\n";
echo "a damaged group's term: ", str_replace($dir, 'DIR', gp_error_of(fn() => $ix->search(['w290']))), "\n";
echo "and with 'verify': ", str_replace($dir, 'DIR', gp_error_of(fn() => GpuPost\Index::open("$dir/b.gpix", ['verify' => true]))), "\n";
$f = file_get_contents("$dir/many.gpix");   /* the first term of group 1 before group 0's last, checksums right */
$f[$s[2][1] + unpack('P', $f, $s[1][1] + 8 * 64)[1] + 2] = '5';   /* 'w064' now 'w054' */
file_put_contents("$dir/b.gpix", fix_v2($f));
echo "groups out of order: ", str_replace($dir, 'DIR', gp_error_of(fn() => GpuPost\Index::open("$dir/b.gpix")->search(['w000']))), "\n";

/* what a crafted file (its checksums made right) cannot get past */
$msg = fn($e) => preg_replace(['/byte \d+/', '~/\S*gpupost-094-\d+~'], ['byte N', 'DIR'], $e);
$last = 4294967294;   /* a block's doc past 2^32 - 1: its 32 bits would wrap below the block before */
$B = $last - 2048;
$a = range(1000, 1126);
array_push($a, $B - 1, $B + 5, $last);
(new GpuPost\Index(['a' => gpu_encode_postings($a, GPUPOST_QS, GPUPOST_VALUES)], GPUPOST_QS, ['device' => 'host']))->save("$dir/w.gpix");
$f = file_get_contents("$dir/w.gpix");
$lo = sections($f)[7][1];
$blk = $lo + unpack('V', $f, $lo + 20)[1];
$f = substr_replace($f, pack('P', 0b1100), $blk + 4, 8);
$f[$blk + 12] = chr(1000 & 0xFF);
$f[$blk + 13] = chr((ord($f[$blk + 13]) & ~3) | (1000 >> 8));
file_put_contents("$dir/b.gpix", fix_v2($f));
echo "a doc past 2^32 - 1: ", $msg(gp_error_of(fn() => GpuPost\Index::open("$dir/b.gpix")->search(['a']))), "\n";
/* a position gap of 0 bits: a count would stand for positions no bytes hold */
(new GpuPost\Index(['a' => gpu_encode_postings([0 => [1, 1 << 27]], GPUPOST_MOD9, GPUPOST_POSTINGS)], GPUPOST_MOD9, ['device' => 'host']))->save("$dir/c.gpix");
$f = file_get_contents("$dir/c.gpix");
$s = sections($f);
$blk = $s[7][1] + 16;
$f = substr_replace($f, "\0" . chr(26) . chr(4) . "\0", $blk, 4);
$f = substr_replace($f, pack('V', 1000 | (7 << 26)), $blk + 12, 4);
$f = substr_replace($f, pack('P', 1000), $s[6][1] + 8, 8);
file_put_contents("$dir/b.gpix", fix_v2($f));
echo "position gaps of 0 bits: ", $msg(gp_error_of(fn() => GpuPost\Index::open("$dir/b.gpix")->search(['a']))), "\n";
/* section 8's totals: what a lazy check can hold them to (the rest only 'verify' reads) */
$lists = ['a' => gpu_encode_postings([1 => [1], 2 => [1, 2], 3 => [4]], GPUPOST_MOD9, GPUPOST_POSTINGS)];
(new GpuPost\Index($lists, GPUPOST_MOD9, ['device' => 'host', 'doc_lengths' => array_fill(0, 100, 20)]))->save("$dir/t.gpix");
$f = file_get_contents("$dir/t.gpix");
$k8 = sections($f)[8][1];
foreach ([[100, 50], [2, 40], [100, 1000]] as [$n, $sum]) {
    file_put_contents("$dir/b.gpix", fix_v2(substr_replace($f, pack('PP', $n, $sum), $k8 + 8, 16)));
    echo "section 8 says $n docs, $sum tokens: ", $msg(gp_error_of(fn() => GpuPost\Index::open("$dir/b.gpix")->search(['a'], ['op' => GPUPOST_OR, 'limit' => 2]))),
        "; verify: ", $msg(gp_error_of(fn() => GpuPost\Index::open("$dir/b.gpix", ['verify' => true]))), "\n";
}
/* 'verify' asked of a persistent index kept from an open() without it */
$f = file_get_contents("$dir/small.gpix");
$lo = sections($f)[7][1];
file_put_contents("$dir/p.gpix", fix_v2(substr_replace($f, pack('V', unpack('V', $f, $lo)[1] + 1), $lo, 4)));
GpuPost\Index::open("$dir/p.gpix", ['persistent' => true, 'device' => 'host']);
echo "persistent, then verify: ", $msg(gp_error_of(fn() => GpuPost\Index::open("$dir/p.gpix", ['persistent' => true, 'device' => 'host', 'verify' => true]))), "\n";

array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
version 2 as documented, answering as the index saved: yes
version 1 of an index opened from version 2: GpuPost\Exception: cannot write the index file DIR/x: an index opened from a version 2 file is saved as version 2 only
a version of none: ValueError: GpuPost\Index::save(): Argument #2 ($options) option 'version' must be 1 or 2
device lists asked compressed: decoded
flipped bytes: 0 wrong answers, most refused
truncations: 0 wrong answers
a block's last doc moved: GpuPost\Exception: index file DIR/b.gpix: byte N: term 't0' (list 0): block 0 ends at doc 327, its skip entry says 328
a score bound lowered: GpuPost\Exception: index file DIR/b.gpix: byte N: term 't0' (list 0): block 0's score bound (1.8657586574554443, the list's 0.001) is below its postings' 1.8657585411402835
a block's score bound lowered: GpuPost\Exception: index file DIR/b.gpix: byte N: term 't0' (list 0): block 0's score bound (9.9999997473787516e-05, the list's 1.8657585411402835) is below its postings' 1.8657585411402835
a position count moved between lists: GpuPost\Exception: index file DIR/b.gpix: byte N: term 't0' (list 0): its postings hold 310 positions, the term table says 311
k1 past its range: GpuPost\Exception: index file DIR/b.gpix: byte N: BM25's k1 1e+308 or b 0.75 is out of range (k1 0 to 1e+06, b 0 to 1)
the lengths of docs removed: GpuPost\Exception: index file DIR/b.gpix: byte N: term 't0' (list 0): doc 3 has no length (or length 0) in the doc lengths
lengths removed, unranked: answers; ranked: GpuPost\Exception: index file DIR/b.gpix: byte N: term 't0' (list 0): doc 3 has no length (or length 0) in the doc lengths
terms out of order: GpuPost\Exception: index file DIR/b.gpix: byte 250: term 1 is not after term 0 (the terms are in increasing order, each once)
a damaged group, another's term: [10,310]
a damaged group's term: GpuPost\Exception: index file DIR/b.gpix: byte 15840: the checksum of terms 256 to 299 (group 4) does not match
and with 'verify': GpuPost\Exception: index file DIR/b.gpix: byte 15840: the checksum of terms 256 to 299 (group 4) does not match
groups out of order: GpuPost\Exception: index file DIR/b.gpix: byte 2848: term 64 is not after term 63 (the terms are in increasing order, each once)
a doc past 2^32 - 1: GpuPost\Exception: index file DIR/b.gpix: byte N: term 'a' (list 0): block 1 holds a doc past 2^32 - 1
position gaps of 0 bits: GpuPost\Exception: index file DIR/b.gpix: byte N: term 'a' (list 0): block 0's position gaps have 0 bits (a gap is at least 1)
section 8 says 100 docs, 50 tokens: GpuPost\Exception: index file DIR/b.gpix: byte N: section 8's docs with a length (100) or their sum (50) cannot be the doc lengths' (each at least 1); verify: GpuPost\Exception: index file DIR/b.gpix: byte N: section 8's docs with a length (100) or their sum (50) cannot be the doc lengths' (each at least 1)
section 8 says 2 docs, 40 tokens: GpuPost\Exception: index file DIR/b.gpix: byte N: term 'a' (list 0): 3 docs, more than the 2 with a length (section 8); verify: GpuPost\Exception: index file DIR/b.gpix: byte N: term 'a' (list 0): 3 docs, more than the 2 with a length (section 8)
section 8 says 100 docs, 1000 tokens: no exception; verify: GpuPost\Exception: index file DIR/b.gpix: byte N: section 8 says 100 docs with a length, 1000 tokens; the doc lengths hold 100, 2000
persistent, then verify: GpuPost\Exception: index file DIR/p.gpix: byte N: term 't0' (list 0): block 0 ends at doc 327, its skip entry says 328
