//! Tuning the score player's weights with the noisy cross-entropy method (Szita & Lőrincz): each
//! generation samples weight vectors around the current mean, plays every sample on the same
//! games (paired seeds, new ones each generation), and moves the mean to the best quarter; a
//! little noise is added to the spread so it does not collapse early.

use rayon::prelude::*;
use serde::Serialize;

use super::bench::BenchOptions;
use super::game::{game_seed, play_game, split_mix};
use super::player::Player;
use super::score::ScoreWeights;

/// A tuning run's settings.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// The games each sample plays (the format's options).
    pub options: BenchOptions,
    /// Where the search starts.
    pub start: ScoreWeights,
    /// Generations.
    pub generations: u32,
    /// Samples per generation.
    pub population: u32,
    /// Games each sample plays per generation (the same seeds for every sample).
    pub games: u32,
    /// The run's seed.
    pub seed: u64,
}

/// One generation's outcome.
#[derive(Clone, Debug, Serialize)]
pub struct Generation {
    /// 1-based.
    pub generation: u32,
    /// Mean headline score of the best sample.
    pub best_fitness: f64,
    /// Mean headline score over all samples.
    pub mean_fitness: f64,
    /// The mean weights after the update.
    pub mean: Vec<f64>,
}

/// A standard normal from two uniform draws of SplitMix64 (Box-Muller).
fn normal(state: &mut u64) -> f64 {
    let mut uniform = || {
        *state = split_mix(*state);
        ((*state >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    };
    let (u1, u2) = (uniform(), uniform());
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// Runs the tuning; `report` is called after each generation. Returns the last mean weights.
pub fn tune(config: &TuneConfig, mut report: impl FnMut(&Generation)) -> ScoreWeights {
    let terms = config.start.terms();
    let mut mean: Vec<f64> = terms.iter().map(|t| t.1).collect();
    let mut sd: Vec<f64> = mean.iter().map(|m| m.abs() * 0.3 + 0.5).collect();
    let input = config
        .options
        .input_model()
        .expect("the options were validated");
    let mut rng = config.seed;
    let population = config.population.max(2) as usize;
    let elite = (population / 4).max(1);
    for generation in 1..=config.generations {
        let samples: Vec<Vec<f64>> = (0..population)
            .map(|i| {
                if i == 0 {
                    return mean.clone();
                }
                mean.iter()
                    .zip(&sd)
                    .map(|(m, s)| m + s * normal(&mut rng))
                    .collect()
            })
            .collect();
        let fitness: Vec<f64> = samples
            .par_iter()
            .map(|w| {
                let player = Player::score_with(ScoreWeights::from_terms(w), input.clone());
                let total: f64 = (0..config.games)
                    .map(|g| {
                        let seed =
                            game_seed(split_mix(config.seed ^ u64::from(generation)), u64::from(g));
                        let r = play_game(
                            &GameConfigOf(&config.options).with_seed(seed),
                            &player,
                            |_, _| Ok(()),
                        );
                        if config.options.uncapped {
                            r.uncapped_score as f64
                        } else {
                            f64::from(r.score)
                        }
                    })
                    .sum();
                total / f64::from(config.games.max(1))
            })
            .collect();
        let mut order: Vec<usize> = (0..population).collect();
        order.sort_by(|&a, &b| fitness[b].total_cmp(&fitness[a]));
        let noise = 0.5 / f64::from(generation);
        for t in 0..mean.len() {
            let best: Vec<f64> = order[..elite].iter().map(|&i| samples[i][t]).collect();
            let m = best.iter().sum::<f64>() / elite as f64;
            let v = best.iter().map(|x| (x - m).powi(2)).sum::<f64>() / elite as f64;
            mean[t] = m;
            sd[t] = v.sqrt() + noise * (m.abs() * 0.05 + 0.1);
        }
        report(&Generation {
            generation,
            best_fitness: fitness[order[0]],
            mean_fitness: fitness.iter().sum::<f64>() / population as f64,
            mean: mean.clone(),
        });
    }
    ScoreWeights::from_terms(&mean)
}

/// The game of a format's options with a seed.
struct GameConfigOf<'a>(&'a BenchOptions);

impl GameConfigOf<'_> {
    fn with_seed(&self, seed: u64) -> super::game::GameConfig {
        super::game::GameConfig {
            seed,
            ..self.0.game()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nes::bench::Format;

    #[test]
    fn a_tiny_run_moves_the_weights_and_is_deterministic() {
        let mut options = Format::Rom.options();
        options.line_cap = Some(4);
        let config = TuneConfig {
            options,
            start: ScoreWeights::shipped(),
            generations: 1,
            population: 4,
            games: 1,
            seed: 3,
        };
        let mut seen = Vec::new();
        let a = tune(&config, |g| seen.push(g.best_fitness));
        let b = tune(&config, |_| {});
        assert_eq!(a, b);
        assert_eq!(seen.len(), 1);
        assert!(seen[0] > 0.0, "four lines score points");
    }
}
