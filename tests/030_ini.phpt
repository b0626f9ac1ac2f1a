--TEST--
INI: gpupost.min_device_values (ALL, >= 0) and gpupost.device (SYSTEM) parse and show in gpu_info()
--EXTENSIONS--
gpupost
--INI--
gpupost.min_device_values=1000
--FILE--
<?php
$i = gpu_info();
$device = ini_get('gpupost.device');
var_dump($i['ini']['gpupost.min_device_values'], $i['ini']['gpupost.device'] === $device);
var_dump(ini_set('gpupost.min_device_values', '-5'));         /* refused */
var_dump(ini_get('gpupost.min_device_values'));
var_dump(ini_set('gpupost.min_device_values', '0'));
var_dump(gpu_info()['ini']['gpupost.min_device_values']);
var_dump(ini_set('gpupost.device', 'host'));                   /* SYSTEM: not at run time */
var_dump(ini_get('gpupost.device') === $device);
?>
--EXPECT--
int(1000)
bool(true)
bool(false)
string(4) "1000"
string(4) "1000"
int(0)
bool(false)
bool(true)
