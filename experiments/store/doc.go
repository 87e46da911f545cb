// Package store is what an output directory keeps between runs: one file
// per finished unit (units/<key>.json: the unit's Spec, whose hash is its
// key, and its Result, written atomically with a checksum), the unit locks
// that keep two workers, in one process or on two hosts, from computing a
// unit at once, the directory lock and owner record of a run writing its
// outputs, and the record of what the outputs cost (cost.json).
//
// It runs nothing: package experiments plans units, hands them to an
// executor and reads their results back from here.
package store
