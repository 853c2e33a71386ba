/*
 * A terminal progress bar for long catalogue loads (cli-progress); silent
 * when stdout is not a terminal, where the final summary says it all.
 */
import { Presets, SingleBar } from 'cli-progress'
import type { Progress } from './import_catalog.js'

/** A `Progress` callback drawing one bar per label, closed when done. */
export function progressBar(label: string): Progress {
  let bar: SingleBar | null = null
  return (done, total) => {
    if (!bar) {
      bar = new SingleBar(
        { format: `${label.padEnd(10)} [{bar}] {value}/{total}`, stream: process.stdout },
        Presets.shades_classic
      )
      bar.start(total, 0)
    }
    bar.update(done)
    if (done >= total) {
      bar.stop()
      bar = null
    }
  }
}
