//! Separable CMA-ES (Ros & Hansen, "A Simple Modification in CMA-ES Achieving Linear Time and
//! Space Complexity", 2008): the evolution strategy with a diagonal covariance, which learns a
//! step size per coordinate and a global one from the evolution paths. Maximises.
//!
//! The whole state, its random generator included, is plain data that serialises exactly
//! (floats as their shortest round-trip text), so a run stopped after any generation and resumed
//! from its saved state samples and updates exactly as the run that did not stop. A diagonal
//! covariance, not a full one: the `cmaes` crate brings a linear-algebra stack, and with 20-30
//! weights and a few hundred evaluations in all, the full matrix (a few hundred entries) could
//! not be learnt anyway.

use serde::{Deserialize, Serialize};

use super::game::split_mix;

/// The optimiser's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SepCmaEs {
    /// Samples per generation (λ).
    pub population: usize,
    /// The mean.
    #[serde(with = "exact_vec")]
    pub mean: Vec<f64>,
    /// The global step size (σ).
    #[serde(with = "exact")]
    pub sigma: f64,
    /// The diagonal of the covariance.
    #[serde(with = "exact_vec")]
    pub variances: Vec<f64>,
    /// The conjugate evolution path (for σ).
    #[serde(with = "exact_vec")]
    pub path_sigma: Vec<f64>,
    /// The evolution path (for the covariance).
    #[serde(with = "exact_vec")]
    pub path_c: Vec<f64>,
    /// Generations told so far.
    pub generation: u32,
    /// The random generator's state (SplitMix64).
    pub rng: u64,
}

/// One generation's samples: `z` standard normal, `x = mean + σ·D·z`.
#[derive(Clone, Debug, PartialEq)]
pub struct Samples {
    /// The standard normal draws.
    pub z: Vec<Vec<f64>>,
    /// The points to evaluate.
    pub x: Vec<Vec<f64>>,
}

impl SepCmaEs {
    /// A run from `mean` with step size `sigma`, unit variances, `population` samples per
    /// generation (at least 4) and the random generator seeded with `seed`.
    #[must_use]
    pub fn new(mean: Vec<f64>, sigma: f64, population: usize, seed: u64) -> SepCmaEs {
        let n = mean.len();
        SepCmaEs {
            population: population.max(4),
            mean,
            sigma,
            variances: vec![1.0; n],
            path_sigma: vec![0.0; n],
            path_c: vec![0.0; n],
            generation: 0,
            rng: seed,
        }
    }

    /// A standard normal (Box-Muller on two SplitMix64 draws).
    fn normal(&mut self) -> f64 {
        let mut uniform = || {
            self.rng = split_mix(self.rng);
            ((self.rng >> 11) as f64 + 0.5) / (1u64 << 53) as f64
        };
        let (u1, u2) = (uniform(), uniform());
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// Draws the next generation's samples.
    pub fn ask(&mut self) -> Samples {
        let n = self.mean.len();
        let mut z = Vec::with_capacity(self.population);
        let mut x = Vec::with_capacity(self.population);
        for _ in 0..self.population {
            let zi: Vec<f64> = (0..n).map(|_| self.normal()).collect();
            let xi = (0..n)
                .map(|j| self.mean[j] + self.sigma * self.variances[j].sqrt() * zi[j])
                .collect();
            z.push(zi);
            x.push(xi);
        }
        Samples { z, x }
    }

    /// Updates the state from the samples' fitness (higher is better), in the samples' order.
    pub fn tell(&mut self, samples: &Samples, fitness: &[f64]) {
        let n = self.mean.len() as f64;
        let lambda = self.population;
        let mu = lambda / 2;
        let raw: Vec<f64> = (1..=mu)
            .map(|i| (mu as f64 + 0.5).ln() - (i as f64).ln())
            .collect();
        let total: f64 = raw.iter().sum();
        let weights: Vec<f64> = raw.iter().map(|w| w / total).collect();
        let mu_eff = 1.0 / weights.iter().map(|w| w * w).sum::<f64>();
        let c_sigma = (mu_eff + 2.0) / (n + mu_eff + 5.0);
        let d_sigma = 1.0 + 2.0 * (((mu_eff - 1.0) / (n + 1.0)).sqrt() - 1.0).max(0.0) + c_sigma;
        let c_c = (4.0 + mu_eff / n) / (n + 4.0 + 2.0 * mu_eff / n);
        // The separable variant's faster learning rates: (n + 2) / 3 times the full one's.
        let c_1 = (2.0 / ((n + 1.3).powi(2) + mu_eff) * (n + 2.0) / 3.0).min(1.0);
        let c_mu = (2.0 * (mu_eff - 2.0 + 1.0 / mu_eff) / ((n + 2.0).powi(2) + mu_eff) * (n + 2.0)
            / 3.0)
            .min(1.0 - c_1);
        let expected_norm = n.sqrt() * (1.0 - 1.0 / (4.0 * n) + 1.0 / (21.0 * n * n));

        let mut order: Vec<usize> = (0..lambda).collect();
        order.sort_by(|&a, &b| fitness[b].total_cmp(&fitness[a]).then(a.cmp(&b)));
        let dims = self.mean.len();
        let std: Vec<f64> = self.variances.iter().map(|v| v.sqrt()).collect();
        // The weighted mean step, in y = D·z and in z.
        let mut y_w = vec![0.0; dims];
        let mut z_w = vec![0.0; dims];
        for (w, &i) in weights.iter().zip(&order) {
            for ((zw, yw), (&z, &sd)) in z_w
                .iter_mut()
                .zip(y_w.iter_mut())
                .zip(samples.z[i].iter().zip(&std))
            {
                *zw += w * z;
                *yw += w * sd * z;
            }
        }
        let sigma = self.sigma;
        for (m, y) in self.mean.iter_mut().zip(&y_w) {
            *m += sigma * y;
        }
        let s = (c_sigma * (2.0 - c_sigma) * mu_eff).sqrt();
        for (p, z) in self.path_sigma.iter_mut().zip(&z_w) {
            *p = (1.0 - c_sigma) * *p + s * z;
        }
        let norm = self.path_sigma.iter().map(|p| p * p).sum::<f64>().sqrt();
        let generation = f64::from(self.generation + 1);
        let h_sigma = norm / (1.0 - (1.0 - c_sigma).powf(2.0 * generation)).sqrt()
            < (1.4 + 2.0 / (n + 1.0)) * expected_norm;
        let h = if h_sigma { 1.0 } else { 0.0 };
        let sc = (c_c * (2.0 - c_c) * mu_eff).sqrt();
        for (p, y) in self.path_c.iter_mut().zip(&y_w) {
            *p = (1.0 - c_c) * *p + h * sc * y;
        }
        for (j, (v, (pc, sd))) in self
            .variances
            .iter_mut()
            .zip(self.path_c.iter().zip(&std))
            .enumerate()
        {
            let rank_mu: f64 = weights
                .iter()
                .zip(&order)
                .map(|(w, &i)| w * (sd * samples.z[i][j]).powi(2))
                .sum();
            *v = (1.0 - c_1 - c_mu) * *v
                + c_1 * (pc.powi(2) + (1.0 - h) * c_c * (2.0 - c_c) * *v)
                + c_mu * rank_mu;
        }
        self.sigma *= ((c_sigma / d_sigma) * (norm / expected_norm - 1.0)).exp();
        self.generation += 1;
    }
}

/// A float as its shortest text that parses back to the same bits.
pub(crate) mod exact {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{v:?}"))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// [`exact`] for a vector.
pub(crate) mod exact_vec {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[f64], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|x| format!("{x:?}")))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
        let texts = Vec::<String>::deserialize(d)?;
        texts
            .iter()
            .map(|t| t.parse().map_err(serde::de::Error::custom))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sphere(x: &[f64]) -> f64 {
        -x.iter()
            .enumerate()
            .map(|(i, v)| (v - i as f64) * (v - i as f64))
            .sum::<f64>()
    }

    #[test]
    fn it_finds_the_top_of_a_shifted_sphere() {
        let mut es = SepCmaEs::new(vec![5.0; 6], 1.0, 10, 7);
        for _ in 0..200 {
            let s = es.ask();
            let f: Vec<f64> = s.x.iter().map(|x| sphere(x)).collect();
            es.tell(&s, &f);
        }
        assert!(sphere(&es.mean) > -1e-6, "{:?}", es.mean);
    }

    #[test]
    fn a_run_resumed_from_its_saved_state_is_the_run_that_did_not_stop() {
        let step = |es: &mut SepCmaEs| {
            let s = es.ask();
            let f: Vec<f64> = s.x.iter().map(|x| sphere(x)).collect();
            es.tell(&s, &f);
        };
        let mut straight = SepCmaEs::new(vec![0.3, -1.7, 2.0], 0.7, 6, 11);
        for _ in 0..3 {
            step(&mut straight);
        }
        let mut stopped = SepCmaEs::new(vec![0.3, -1.7, 2.0], 0.7, 6, 11);
        step(&mut stopped);
        step(&mut stopped);
        let saved = serde_json::to_string(&stopped).unwrap();
        let mut resumed: SepCmaEs = serde_json::from_str(&saved).unwrap();
        assert_eq!(resumed, stopped);
        step(&mut resumed);
        assert_eq!(resumed, straight);
        assert_eq!(resumed.generation, 3);
    }
}
