//! The random numbers of the bootstrap: SplitMix64, normal, gamma and Beta variates, and Beta
//! draws from shared normals (the skew-corrected approximation).

/// SplitMix64: a small, well-mixed, seedable generator (not for cryptography).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in the open interval (0, 1).
    pub fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }
    /// Standard normal (Marsaglia's polar method; the second value of a pair is dropped, which
    /// keeps the generator stateless beyond its counter).
    pub fn normal(&mut self) -> f64 {
        loop {
            let (u, v) = (2.0 * self.uniform() - 1.0, 2.0 * self.uniform() - 1.0);
            let s = u * u + v * v;
            if s > 0.0 && s < 1.0 {
                return u * (-2.0 * s.ln() / s).sqrt();
            }
        }
    }
    /// Gamma(shape, 1) for shape ≥ 1 (Marsaglia & Tsang).
    pub fn gamma(&mut self, shape: f64) -> f64 {
        let d = shape - 1.0 / 3.0;
        let c = 1.0 / (9.0 * d).sqrt();
        loop {
            let x = self.normal();
            let v = 1.0 + c * x;
            if v <= 0.0 {
                continue;
            }
            let v = v * v * v;
            let u = self.uniform();
            if u < 1.0 - 0.0331 * x * x * x * x || u.ln() < 0.5 * x * x + d * (1.0 - v + v.ln()) {
                return d * v;
            }
        }
    }
    /// Beta(a, b) for a, b ≥ 1 (exact, through two gamma draws).
    pub fn beta(&mut self, a: f64, b: f64) -> f64 {
        let x = self.gamma(a);
        x / (x + self.gamma(b))
    }
}

/// Beta(a, b) variates from standard normals: mean and variance exact, skew corrected to first
/// order (Cornish–Fisher). Monotone in z for |z| < 3 / |skew| (over 8 here).
#[derive(Clone, Copy)]
pub(super) struct BetaDraw {
    mean: f64,
    sd: f64,
    /// The skew over 6.
    k: f64,
}

impl BetaDraw {
    pub(super) fn new(a: f64, b: f64) -> BetaDraw {
        let n = a + b;
        let sd = (a * b / (n * n * (n + 1.0))).sqrt();
        let k = 2.0 * (b - a) * (n + 1.0).sqrt() / ((n + 2.0) * (a * b).sqrt()) / 6.0;
        BetaDraw { mean: a / n, sd, k }
    }

    pub(super) fn at(&self, z: f64) -> f64 {
        crate::number::clamp(self.mean + self.sd * (z + self.k * (z * z - 1.0)), 0.0, 1.0)
    }

    /// Whether the draw rises with z over `lo..=hi`: its slope sd·(1 + 2kz) is linear in z, so
    /// the ends tell.
    pub(super) fn rises_over(&self, lo: f64, hi: f64) -> bool {
        1.0 + 2.0 * self.k * lo >= 0.0 && 1.0 + 2.0 * self.k * hi >= 0.0
    }
}

#[cfg(test)]
pub(super) fn beta_from_normal(a: f64, b: f64) -> impl Fn(f64) -> f64 {
    let d = BetaDraw::new(a, b);
    move |z| d.at(z)
}
