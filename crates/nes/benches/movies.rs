//! Engine speed on the public movies: frames per second replaying each `.fm2` file under
//! `tests/movies/` from power-on, line by line as `playfield nes replay` does.
//!
//! Criterion reports the throughput of each movie in elements per second; one element is one
//! frame, so `thrpt` is frames/s. The side-by-side figures with meta_nestris in the README come
//! from `playfield nes replay MOVIE --repeat 2000` (see the README for the command).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use playfield_nes::Nes;
use playfield_nes::fm2::{InputLine, Movie};
use std::hint::black_box;
use std::path::{Path, PathBuf};

/// Every `.fm2` file under `dir`, sorted, searched recursively.
fn movie_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "fm2") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn replay(lines: &[InputLine]) -> u32 {
    let mut nes = Nes::power_on();
    for line in lines {
        nes.step_line(black_box(line));
    }
    nes.score()
}

fn movies(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/movies");
    let mut group = c.benchmark_group("movie");
    group.sample_size(10);
    for path in movie_files(&dir) {
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let movie =
            Movie::parse(&text).unwrap_or_else(|e| panic!("cannot parse {}: {e}", path.display()));
        let name = path
            .strip_prefix(&dir)
            .unwrap_or(&path)
            .with_extension("")
            .display()
            .to_string();
        group.throughput(Throughput::Elements(movie.lines.len() as u64));
        group.bench_function(name, |b| b.iter(|| black_box(replay(&movie.lines))));
    }
    group.finish();
}

criterion_group!(benches, movies);
criterion_main!(benches);
