--TEST--
Bounded by design, property test: random inputs whose results land near the limits (a quarter of them, just under, just over, many times over), truthful and lying headers, every format and output, with memory_limit 16M, 128M and -1 (gpupost.max_result_bytes 256M), each in a child process: an exception or a correct result, never a fatal error or a wrong value; results well under the limit never refused
--EXTENSIONS--
gpupost
--SKIPIF--
<?php
if (getenv('USE_ZEND_ALLOC') === '0') die('skip Zend allocator off (sanitizer and valgrind runs): the parent would be too slow there; tests/066 runs the limits in children in those runs too');
?>
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';

/* The child: builds an input of `kind` whose result takes about `target` bytes as PHP arrays
 * (16 bytes an int, about 256 a posting), runs it and prints the exception, or "ok" and whether
 * the result is the right one (checked from how the input was built), or "skip" where the
 * input itself would not fit. */
$child = GP_CHILD_RUN . <<<'CODE'
[, $kind, $target, $limit, $seed] = $argv;
$target = (int)$target;
$limit = (int)$limit;
mt_srand((int)$seed);
$room = $limit > 0 ? $limit : 256 << 20;
$wah64 = fn(int $nbits, int ...$w) => 'GPWH' . "\x40\0\0\0" . pack('P', $nbits) . implode('', array_map(fn($x) => pack('P', $x), $w));
$ones = function (int $rows) use ($wah64) {   /* rows set rows: a fill of ones, then a literal */
    $g = intdiv($rows, 63);
    $tail = $rows - 63 * $g;
    $words = $g ? [(1 << 63) | (1 << 62) | $g] : [];
    if ($tail) $words[] = (1 << $tail) - 1;
    return $wah64($rows, ...$words);
};
$check = function ($r, int $n, int $first, int $last) {
    return is_array($r) && count($r) === $n && ($n === 0 || (reset($r) === $first && end($r) === $last));
};
$run = function (callable $fn, callable $ok) {
    try {
        $r = $fn();
    } catch (GpuPost\Exception $e) {
        echo 'refused: ', $e->getMessage(), "\n";
        return;
    }
    echo $ok($r) ? "ok right\n" : "ok WRONG\n";
};
switch ($kind) {
case 'mod9_values':   /* words of 24 one-bit values */
    $n = max(24, intdiv($target, 16) - intdiv($target, 16) % 24);
    $b = str_repeat(pack('N', 0x3FFFFFFF), intdiv($n, 24));
    $run(fn() => gpu_decode_postings($b), fn($r) => $check($r, $n, 1, 1) && array_sum($r) === $n);
    break;
case 'mod9_docs':
case 'mod9_postings':   /* distinct docs, k positions each */
    $k = mt_rand(1, 6);
    $per = $kind === 'mod9_docs' ? 16 : 56 + 160 + 40;
    $p = max(1, intdiv($target, $per));
    if ($p * $k * 8 > $room / 4) { echo "skip\n"; break; }
    $b = '';
    $pos = range(2000, 2000 + $k - 1);
    for ($d = 0; $d < $p; $d += 20000) {
        $chunk = [];
        for ($i = $d; $i < min($p, $d + 20000); $i++) $chunk[$i] = $pos;
        $b .= gpu_encode_postings($chunk, GPUPOST_MOD9, GPUPOST_POSTINGS);
    }
    unset($chunk);
    if ($kind === 'mod9_docs') {
        $run(fn() => gpu_decode_postings($b, GPUPOST_MOD9, GPUPOST_DOCS), fn($r) => $check($r, $p, 0, $p - 1));
    } else {
        $run(fn() => gpu_decode_postings($b, GPUPOST_MOD9, GPUPOST_POSTINGS),
             fn($r) => count($r) === $p && $r[0] === $pos && $r[$p - 1] === $pos && array_key_last($r) === $p - 1);
    }
    break;
case 'mod9_batch':   /* many blobs of one value */
    $n = max(1, intdiv($target, 216));
    if ($n * 40 > $room / 2) { echo "skip\n"; break; }
    $bs = array_fill(0, $n, pack('N', 9));
    $run(fn() => gpu_decode_postings_batch($bs), fn($r) => count($r) === $n && $r[0] === [9] && $r[$n - 1] === [9]);
    break;
case 's9_lying':   /* n as the target says, words for far fewer */
    $b = 'GPS9' . pack('V', min(0xFFFFFFFF, intdiv($target, 16))) . pack('V', mt_rand(0, 2)) . str_repeat(pack('V', 0x8FFFFFFF), mt_rand(1, 100));
    $run(fn() => gpu_decode_postings($b, GPUPOST_S9), fn($r) => false);
    break;
case 'qs_lying':
    $b = 'GPQS' . "\x01\x00\x00\x00" . pack('V', min(0xFFFFFFFF, intdiv($target, 16))) . pack('V', 0) . str_repeat("\xff", 4 * mt_rand(1, 100));
    $run(fn() => gpu_decode_postings($b, GPUPOST_QS), fn($r) => false);
    break;
case 's9_values':   /* 28 one-bit values a word (selector 8), delta 1: 1, 2, 3, ... */
    $n = max(28, intdiv($target, 16) - intdiv($target, 16) % 28);
    if ($n / 7 > $room / 4) { echo "skip\n"; break; }
    $b = 'GPS9' . pack('V', $n) . pack('V', 1) . str_repeat(pack('V', 0x8FFFFFFF), intdiv($n, 28));
    $run(fn() => gpu_decode_postings($b, GPUPOST_S9), fn($r) => $check($r, $n, 1, $n));
    break;
case 'wah_rows':
    $rows = max(1, intdiv($target, 16));
    $b = $ones($rows);
    $run(fn() => gpu_decode_postings($b, GPUPOST_WAH), fn($r) => $check($r, $rows, 0, $rows - 1));
    break;
case 'wah_query':
    $rows = max(1, intdiv($target, 16));
    $b = $ones($rows);
    $run(fn() => gpu_wah_query([$b, $b], mt_rand(0, 1) ? GPUPOST_AND : GPUPOST_OR), fn($r) => $check($r, $rows, 0, $rows - 1));
    break;
case 'wah_batch':
    $rows = max(1, intdiv($target, 48));
    $b = $ones($rows);
    $run(fn() => gpu_decode_postings_batch(['a' => $b, 'b' => $b, 'c' => $b], GPUPOST_WAH),
         fn($r) => $check($r['a'], $rows, 0, $rows - 1) && $r['a'] === $r['c']);
    break;
case 'wah_decompress':
    $rows = max(8, 8 * $target);
    $b = $ones($rows);
    $run(fn() => gpu_wah_decompress($b), fn($r) => strlen($r) === $rows / 8 && strspn($r, "\xff") === $rows / 8);
    break;
case 'qs_encode':   /* one large value, c from tiny to large: the upper bits follow max >> l */
    $c = [1e-9, 1e-6, 1e-3, 1.0][mt_rand(0, 3)];
    $v = [mt_rand(0, 0xFFFFFFFF), 0xFFFFFFFF][mt_rand(0, 1)];
    $run(fn() => gpu_decode_postings(gpu_encode_postings([$v], GPUPOST_QS, GPUPOST_VALUES, ['c' => $c]), GPUPOST_QS),
         fn($r) => $r === [$v]);
    break;
case 'wah_encode':   /* two rows far apart: the encoded bitmap is small, its decompression large */
    $nbits = max(2, 8 * $target);
    $run(fn() => gpu_wah_decompress(gpu_encode_postings([0, $nbits - 1], GPUPOST_WAH, GPUPOST_VALUES, ['nbits' => $nbits, 'word_bits' => 64])),
         fn($r) => strlen($r) === intdiv($nbits + 7, 8) && ord($r[0]) === 1);
    break;
}
CODE;

$kinds = ['mod9_values', 'mod9_docs', 'mod9_postings', 'mod9_batch', 's9_lying', 'qs_lying', 's9_values',
          'wah_rows', 'wah_query', 'wah_batch', 'wah_decompress', 'qs_encode', 'wah_encode'];
$limits = ['16M' => 16 << 20, '128M' => 128 << 20, '-1' => -1];
$device = gp_device_available();
mt_srand(67);
$runs = $bad = $refused = $right = $skipped = 0;
$fatal = [];
foreach ($kinds as $kind) {
    foreach ($limits as $name => $limit) {
        $room = $limit > 0 ? $limit : 256 << 20;
        /* a quarter, just under, just over, four times and a billion times the room */
        foreach ([0.25, 0.7 + mt_rand(0, 20) / 100, 1.0 + mt_rand(5, 30) / 100, 4.0, 1e9] as $f) {
            $target = (int)min(PHP_INT_MAX / 64, $room * $f);
            if ($f === 1e9 && in_array($kind, ['mod9_values', 'mod9_docs', 'mod9_postings', 'mod9_batch', 's9_values'], true)) {
                continue;   /* these blobs grow with their results */
            }
            $path = $device && mt_rand(0, 1) ? 'device' : 'host';
            [$out, $rc] = gp_child($child, ['memory_limit' => $name, 'gpupost.max_result_bytes' => '256M'],
                                   $path, [$kind, (string)$target, (string)$limit, (string)mt_rand()]);
            $runs++;
            $what = "$kind, target " . round($f, 2) . " of $name, $path";
            if ($rc !== 0 || !preg_match('/^(ok right|refused: .*|skip)$/', $out)) {
                echo "$what: exit $rc: $out\n";
                $bad++;
            } elseif ($out === 'skip') {
                $skipped++;
            } elseif (str_starts_with($out, 'refused')) {
                $refused++;
                if ($f <= 0.25 && !str_contains($kind, 'lying')) {
                    echo "$what: refused although a quarter of the room: $out\n";
                    $bad++;
                }
            } else {
                $right++;
                /* (an encoder's output follows its options, not the target) */
                if (str_contains($kind, 'lying') || ($f >= 4.0 && $kind !== 'qs_encode')) {
                    echo "$what: a result ", $f >= 4.0 ? 'far past the limit' : 'from a lying header', ": $out\n";
                    $bad++;
                }
            }
        }
    }
}
echo "runs: ", $runs > 150 ? 'over 150' : $runs, ", right results: ", $right > 40 ? 'over 40' : $right,
     ", refused: ", $refused > 60 ? 'over 60' : $refused, ", problems: $bad\n";
?>
--EXPECT--
runs: over 150, right results: over 40, refused: over 60, problems: 0
