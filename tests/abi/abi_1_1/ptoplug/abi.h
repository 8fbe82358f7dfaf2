/*
 * ptoplug ABI, version 1.1: include this one header.
 *
 *   types.h       status codes, strings, handles, kinds, enums
 *   host_api.h    the table of functions a host gives every pass: read, walk, rewrite, diagnose
 *   plugin_api.h  the descriptor and entry point a plugin exports
 */
#ifndef PTOPLUG_ABI_H
#define PTOPLUG_ABI_H

#include "ptoplug/host_api.h"
#include "ptoplug/plugin_api.h"
#include "ptoplug/types.h"

#endif /* PTOPLUG_ABI_H */
