// The floor of tools/pico-anchor: startFloor(port, valueBytes) opens lwIP's raw-API server of floor.c.
export function startFloor(port, valueBytes) @ "xs_anchor_floor_start";
