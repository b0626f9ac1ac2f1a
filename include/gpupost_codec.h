/* The codecs as the faces use them directly: encoders (gpu_encode_postings), the MOD9 word and
 * posting readers behind Yioop's slices and seeks. Decoding goes through include/gpupost.h
 * (gp_decode). */
#ifndef GPUPOST_CODEC_H
#define GPUPOST_CODEC_H

#include "../codec/gp_mod9.h"
#include "../codec/gp_mod9_yioop.h"
#include "../codec/gp_s9.h"
#include "../codec/gp_qs.h"
#include "../codec/gp_vbyte.h"
#include "../codec/gp_gvarint.h"
#include "../codec/gp_wah.h"

#endif
