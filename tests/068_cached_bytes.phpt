--TEST--
What a process keeps between calls (host scratch, pinned staging, device buffers) is trimmed to gpupost.max_cached_bytes after each call, shown in gpu_info(), and reused while under it
--EXTENSIONS--
gpupost
--INI--
memory_limit=512M
gpupost.max_cached_bytes=1M
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$blob = str_repeat(pack('N', 0x3FFFFFFF), 50000);   /* 1.2M values: 4.8 MB of 32-bit scratch */
$postings = gpu_encode_postings(array_fill_keys(range(0, 60000, 3), [5, 9, 700]), GPUPOST_MOD9, GPUPOST_POSTINGS);
$want = array_fill(0, 1200000, 1);
$wantp = gpu_decode_postings($postings, GPUPOST_MOD9, GPUPOST_POSTINGS);
$held = fn() => gpu_info()['cached'];
$paths = gp_device_available() ? ['host', 'device'] : ['host'];
if (in_array('device', $paths)) {
    putenv('GPUPOST_FORCE_STAGING=1');   /* the GPU's pinned staging on PoCL too (a test build) */
}
foreach ($paths as $path) {
    foreach (['1M', '64M', '0', '1M'] as $cap) {
        ini_set('gpupost.max_cached_bytes', $cap);
        $ok = gp_on($path, fn() => gpu_decode_postings($blob)) === $want
           && gp_on($path, fn() => gpu_decode_postings($postings, GPUPOST_MOD9, GPUPOST_POSTINGS)) === $wantp;
        $h = $held();
        $bytes = ['1M' => 1 << 20, '64M' => 64 << 20, '0' => 0][$cap];
        $kept_host = $h['host_scratch'] + $h['pinned'];
        $line = sprintf("%s, cap %s: right %s, host+pinned within the cap %s, device within the cap %s, %s\n", $path, $cap,
               $ok ? 'yes' : 'no', $kept_host <= $bytes ? 'yes' : "no ($kept_host)",
               $h['device'] <= $bytes ? 'yes' : "no ({$h['device']})",
               $cap === '64M' ? ($path === 'host' ? ($h['host_scratch'] >= 4800000 ? 'scratch kept for the next call' : 'scratch not kept')
                                                  : ($h['device'] >= 4800000 ? 'device buffers kept' : 'device buffers not kept'))
                              : 'trimmed');
        $line = rtrim($line);
        if ($path === 'host') echo $line, "\n";
        /* (no regular expression: PCRE's JIT trips valgrind, which runs this suite too) */
        if (str_contains($line, 'right no') || str_contains($line, 'cap no') || str_contains($line, 'not kept')) {
            echo "PROBLEM: $line\n";
        }
    }
}
echo "paths checked: ", count($paths), "\n";
?>
--EXPECTF--
host, cap 1M: right yes, host+pinned within the cap yes, device within the cap yes, trimmed
host, cap 64M: right yes, host+pinned within the cap yes, device within the cap yes, scratch kept for the next call
host, cap 0: right yes, host+pinned within the cap yes, device within the cap yes, trimmed
host, cap 1M: right yes, host+pinned within the cap yes, device within the cap yes, trimmed
paths checked: %d
