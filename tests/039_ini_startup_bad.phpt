--TEST--
INI at start-up: a refused value (negative, another base, overflow, junk) leaves the default in force, with a warning
--EXTENSIONS--
gpupost
--INI--
gpupost.min_device_values=-0x10
gpupost.max_result_bytes=99999999999999999999
gpupost.max_cached_bytes=lots
display_startup_errors=1
--FILE--
<?php
$ini = gpu_info()['ini'];
var_dump($ini['gpupost.min_device_values'], $ini['gpupost.max_result_bytes'], $ini['gpupost.max_cached_bytes']);
?>
--EXPECTF--
%AWarning: PHP Startup: gpupost.min_device_values must be a decimal integer from 0 to 9223372036854775807, "-0x10" given; the value in force stays in %s
%AWarning: PHP Startup: gpupost.max_result_bytes must be a byte count (digits, optionally K, M or G) from 1 to 9223372036854775807, "99999999999999999999" given; the value in force stays in %s
%AWarning: PHP Startup: gpupost.max_cached_bytes must be a byte count (digits, optionally K, M or G) from 0 to 9223372036854775807, "lots" given; the value in force stays in %s
int(40000)
int(1073741824)
int(67108864)
