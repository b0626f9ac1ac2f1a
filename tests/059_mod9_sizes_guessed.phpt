--TEST--
MOD9 on the device brings its results back with its sizes as far as the host's estimate (64 sampled words) reaches, and the rest in a second read: blobs whose sampled words mislead the estimate low and high, in VALUES, DOCS and POSTINGS mode, one blob and a batch, against the host and the reference decoder
--EXTENSIONS--
gpupost
--ENV--
GPUPOST_TRACE=1
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
/* The words gp_mod9_estimate samples: one from each stretch of intdiv(nw, 64) + 1, at a place
 * that varies (codec/gp_mod9.c) */
function sampled_words(int $nw): array
{
    $step = intdiv($nw, 64) + 1;
    $at = [];
    for ($from = 0, $s = 0; $from < $nw; $from += $step, $s++) $at[min($nw - 1, $from + (($s * 2654435761) >> 7) % $step)] = true;
    return $at;
}
/* nw words whose sampled ones say half the values and no postings (low), or twelve times the
 * values (high) */
function misleading(int $nw, bool $low): string
{
    $sampled = sampled_words($nw);
    $w = [];
    for ($i = 0; $i < $nw; $i++) {
        $doc1 = 1 + $i % 16000;   /* docs repeat only past 16,000 words */
        $w[] = (16 << 24) | ($doc1 << 14) | mt_rand(1, 16383);   /* flags 00, 2 x 14 bits */
    }
    foreach (array_keys($sampled) as $i) {
        if (!$low) {
            $w[$i] = 0x3FFFFFFF;   /* flags 00, 24 x 1 bit, all 1: doc 0 and 23 gaps */
        } elseif ($i > 0 && !isset($sampled[$i - 1])) {
            $w[$i - 1] = 0xC0000000 | (1 + $i % 16000);   /* flags 11, one 28-bit value: starts a posting... */
            $w[$i] = 0x40000007;                           /* ...that this sampled word ends: one gap, no start */
        }
    }
    return pack('N*', ...$w);
}
mt_srand(59);
$bad = 0;
$cases = ['low' => misleading(6400, true), 'high' => misleading(6400, false),
          'low, long' => misleading(60000, true), 'low, one tile' => misleading(1600, true)];
/* mapped downloads (PoCL's way), then the GPU's staged ones (forced in a test build; a release
 * build runs the mapped way twice) */
foreach (['0', '1'] as $staged) {
putenv("GPUPOST_FORCE_STAGING=$staged");
foreach ($cases as $name => $b) {
    $ref = ref_mod9_postings($b);
    $want = [GPUPOST_VALUES => ref_mod9_values($b), GPUPOST_DOCS => array_column($ref, 0),
             GPUPOST_POSTINGS => ref_as_postings_array($ref)];
    foreach ($want as $mode => $w) {
        $h = gp_on('host', fn() => gpu_decode_postings($b, GPUPOST_MOD9, $mode));
        $d = gp_on('device', fn() => gpu_decode_postings($b, GPUPOST_MOD9, $mode));
        $second[$name] = ($second[$name] ?? 0) + (preg_grep('/second read/', array_column(gpu_info()['trace'], 0)) ? 1 : 0);
        if ($h !== $w || $d !== $w) { echo "$name, mode $mode differs\n"; $bad++; }
        $batch = ['a' => $b, 'b' => '', 'c' => $cases['low'], 'd' => $b];
        $hb = gp_on('host', fn() => gpu_decode_postings_batch($batch, GPUPOST_MOD9, $mode));
        $db = gp_on('device', fn() => gpu_decode_postings_batch($batch, GPUPOST_MOD9, $mode));
        if ($db !== $hb || $hb['a'] !== $w || $hb['d'] !== $w) { echo "$name, mode $mode batch differs\n"; $bad++; }
    }
    if ($staged) continue;
    printf("%s: %d words, %d values, %d postings\n", $name, strlen($b) / 4, count($want[GPUPOST_VALUES]), count($ref));
}
}
/* the low guesses were short (on a device: the rest came in a second read) */
foreach (['low', 'low, long', 'low, one tile'] as $name) {
    echo "$name: ", !gp_device_available() || $second[$name] === 6 ? 'second reads' : "$second[$name] second reads of 6", "\n";
}
echo "mismatches: $bad\n";
?>
--EXPECTF--
low: 6400 words, %d values, %d postings
high: 6400 words, %d values, 6400 postings
low, long: 60000 words, %d values, %d postings
low, one tile: 1600 words, %d values, %d postings
low: second reads
low, long: second reads
low, one tile: second reads
mismatches: 0
