--TEST--
WAH rows on the device come back with their count as far as the host's estimate (64 sampled words) reaches, and the rest in a second read: bitmaps whose sampled words mislead the estimate low and high, 32- and 64-bit words, one bitmap and a batch, mapped and staged downloads, against the host and the reference decoder
--EXTENSIONS--
gpupost
--INI--
memory_limit=512M
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
/* nw words of one group each, sampled every (intdiv(nw, 64) + 1)-th from word 0
 * (gp_wah_estimate_rows): low: the sampled words are 0-fills and the others all-ones literals;
 * high: the sampled words are 1-fills and the others empty literals */
function misleading_wah(int $nw, int $w, bool $low): string
{
    $step = intdiv($nw, 64) + 1;
    $g = $w - 1;
    $fill = 1 << $g;
    $ones = $w === 64 ? PHP_INT_MAX : (1 << $g) - 1;   /* (1 << 63) - 1 would be a float */
    $words = [];
    for ($i = 0; $i < $nw; $i++) {
        $sampled = $i % $step === 0;
        $words[] = $low ? ($sampled ? $fill | 1 : $ones & ~(1 << ($i % $g))) : ($sampled ? $fill | (1 << ($w - 2)) | 1 : 0);
    }
    $head = 'GPWH' . chr($w) . "\0\0\0" . pack('P', $nw * $g);
    return $head . ($w === 32 ? pack('V*', ...$words) : pack('P*', ...$words));
}
$bad = 0;
$cases = [];
foreach ([32, 64] as $w) {
    $cases["low $w"] = misleading_wah(8000, $w, true);
    $cases["high $w"] = misleading_wah(2000, $w, false);   /* its guess stays below 1 MB */
}
foreach (['0', '1'] as $staged) {   /* mapped downloads (PoCL's way), then the GPU's staged ones */
    putenv("GPUPOST_FORCE_STAGING=$staged");   /* a test build only; a release build maps twice */
    foreach ($cases as $name => $b) {
        $want = ref_wah_rows($b);
        $h = gp_on('host', fn() => gpu_decode_postings($b, GPUPOST_WAH));
        $d = gp_on('device', fn() => gpu_decode_postings($b, GPUPOST_WAH));
        if ($h !== $want || $d !== $want) { echo "$name differs\n"; $bad++; }
        $batch = ['a' => $b, 'b' => $cases['low 32'], 'c' => $b];
        $db = gp_on('device', fn() => gpu_decode_postings_batch($batch, GPUPOST_WAH));
        if ($db !== gp_on('host', fn() => gpu_decode_postings_batch($batch, GPUPOST_WAH)) || $db['c'] !== $want) {
            echo "$name batch differs\n";
            $bad++;
        }
        if (!$staged) printf("%s: %d rows\n", $name, count($want));
    }
}
echo "mismatches: $bad\n";
?>
--EXPECTF--
low 32: %d rows
high 32: %d rows
low 64: %d rows
high 64: %d rows
mismatches: 0
