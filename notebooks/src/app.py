# %% [markdown]
# # cardlab classroom: step through a card game
#
# Deal a game, then press **Next move** (or **Step**, one card at a time) and watch the chances on the right
# change. Pick another game, the number of players or a seed above the buttons and press **New deal**. The
# *viewpoint* menu shows the table as one player sees it; every probability is computed from what that
# viewpoint knows. Set a seat to *human* to play it yourself with the move buttons under the table.

# %%
import cardlab

cardlab.Stepper("garbage", players=2, seed=3)
