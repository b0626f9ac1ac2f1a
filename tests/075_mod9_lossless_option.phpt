--TEST--
MOD9 postings encoded with 'combined' => false (the long form, which Yioop's decoder reads alike): every first gap 1..1023 with docs across the combined form's range decodes exactly, host, device and the reference decoder; the default stays Yioop's bytes, whose combined form loses first gaps 512..1023; tests/085 has Yioop's own unpackPosting read the long form back
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$docs = [0, 1, (1 << 15) - 2, (1 << 15) - 1, 1 << 15, (1 << 15) + 1, 1 << 17, (1 << 18) - 1, 1 << 18, (1 << 27) - 2];
$bad = $lossy = $refused = $checked = 0;
foreach ($docs as $doc) {
    $blobs_long = $blobs_yioop = $want = [];
    for ($gap = 1; $gap <= 1023; $gap++) {
        $in = [$doc => [$gap, $gap + 3]];
        $want[$gap] = $in;
        $blobs_long[$gap] = gpu_encode_postings($in, GPUPOST_MOD9, GPUPOST_POSTINGS, ['combined' => false]);
        try {
            $blobs_yioop[$gap] = gpu_encode_postings($in, GPUPOST_MOD9, GPUPOST_POSTINGS);
        } catch (ValueError $e) {
            $blobs_yioop[$gap] = null;   /* Yioop's form cannot hold it (28 bits) */
        }
    }
    foreach (['host', 'device'] as $path) {
        $got = gp_on($path, fn() => gpu_decode_postings_batch($blobs_long, GPUPOST_MOD9, GPUPOST_POSTINGS));
        if ($got !== $want) { $bad++; echo "doc $doc on $path: the long form changed a posting\n"; }
    }
    foreach ($blobs_long as $gap => $b) {
        $checked++;
        if (ref_mod9_postings($b) !== [[$doc, [$gap, $gap + 3]]]) { $bad++; echo "doc $doc gap $gap: reference decoder differs\n"; }
        /* the default is Yioop's packPosting: combined for docs 2^15 .. 2^18 - 1 and gaps < 1024 */
        $combined = $doc >= (1 << 15) && $doc < (1 << 18);
        if ($blobs_yioop[$gap] === null) {
            $refused++;
            continue;
        }
        if (($b === $blobs_yioop[$gap]) === $combined) { $bad++; echo "doc $doc gap $gap: the forms should ", $combined ? 'differ' : 'agree', "\n"; }
        if (gpu_decode_postings($blobs_yioop[$gap], GPUPOST_MOD9, GPUPOST_POSTINGS) !== $want[$gap]) $lossy++;
    }
}
echo "$checked postings, ", $bad ? "$bad FAILURES" : "the long form exact everywhere",
     "; Yioop's form lost $lossy (docs 2^15, 2^15 + 1, 2^17 with gaps 512..1023) and could not hold $refused (doc 2^18 - 1, the same gaps)\n";
echo gp_error_of(fn() => gpu_encode_postings([1 => [1]], GPUPOST_MOD9, GPUPOST_POSTINGS, ['combined' => 0])), "\n";
echo gp_error_of(fn() => gpu_encode_postings([1, 2], GPUPOST_MOD9, GPUPOST_VALUES, ['combined' => false])), "\n";
?>
--EXPECT--
10230 postings, the long form exact everywhere; Yioop's form lost 1536 (docs 2^15, 2^15 + 1, 2^17 with gaps 512..1023) and could not hold 512 (doc 2^18 - 1, the same gaps)
ValueError: gpu_encode_postings(): Argument #4 ($options) option "combined" must be true or false
ValueError: gpu_encode_postings(): Argument #4 ($options) contains unknown option "combined" for this format
