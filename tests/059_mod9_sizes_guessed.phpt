--TEST--
MOD9 on the device brings its results back with its sizes as far as the host's estimate (64 sampled words) reaches, and the rest in a second read: blobs whose sampled words mislead the estimate low and high, in VALUES, DOCS and POSTINGS mode, one blob and a batch, against the host and the reference decoder
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
/* nw words, sampled every (intdiv(nw, 64) + 1)-th word from word 0 (gp_mod9_estimate) */
function misleading(int $nw, bool $low): string
{
    $step = intdiv($nw, 64) + 1;
    $w = [];
    for ($i = 0; $i < $nw; $i++) {
        $doc1 = 1 + $i % 16000;   /* docs repeat only past 16,000 words */
        if ($low && ($i + 1) % $step === 0 && $i + 1 < $nw) {
            $w[] = 0xC0000000 | $doc1;   /* flags 11, one 28-bit value: starts a posting... */
        } elseif ($low && $i % $step === 0 && $i > 0) {
            $w[] = 0x40000007;           /* ...that this sampled word ends: one gap, no start */
        } elseif (!$low && $i % $step === 0) {
            $w[] = 0x3FFFFFFF;   /* flags 00, 24 x 1 bit, all 1: doc 0 and 23 gaps */
        } else {
            $w[] = (16 << 24) | ($doc1 << 14) | mt_rand(1, 16383);   /* flags 00, 2 x 14 bits */
        }
    }
    return pack('N*', ...$w);
}
mt_srand(59);
$bad = 0;
$cases = ['low' => misleading(6400, true), 'high' => misleading(6400, false),
          'low, long' => misleading(60000, true)];
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
echo "mismatches: $bad\n";
?>
--EXPECTF--
low: 6400 words, %d values, %d postings
high: 6400 words, %d values, 6400 postings
low, long: 60000 words, %d values, %d postings
mismatches: 0
