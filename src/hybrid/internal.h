/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the hybrid module (src/hybrid/). */
#ifndef DVC_HYBRID_INTERNAL_H
#define DVC_HYBRID_INTERNAL_H

#include "dvicert/hybrid.h"

#endif
